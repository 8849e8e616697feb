-- planner's SQLite schema. Versioned with PRAGMA user_version; store.c
-- applies this file to a new database and migrates older ones forward.
-- Money is USD (an offer's in its own currency column), memory GiB, times
-- ISO 8601 UTC text.

CREATE TABLE IF NOT EXISTS offers (
	provider        TEXT NOT NULL,    -- adapter name
	offer           TEXT NOT NULL,    -- offer id / instance type
	region          TEXT NOT NULL DEFAULT '',
	spot            INTEGER NOT NULL DEFAULT 0,
	gpu             TEXT NOT NULL,    -- canonical GPU name
	gpu_count       INTEGER NOT NULL CHECK (gpu_count > 0),
	vram_gib        REAL NOT NULL,    -- per GPU
	vcpus           REAL NOT NULL DEFAULT 0,
	ram_gib         REAL NOT NULL DEFAULT 0,
	price_per_hour  REAL NOT NULL CHECK (price_per_hour > 0), -- per instance-hour, in currency
	available       INTEGER NOT NULL DEFAULT 1,
	fetched_at      TEXT NOT NULL,    -- '' = the provider's offer_dates.fetched_at
	source          TEXT NOT NULL DEFAULT '',
	country         TEXT NOT NULL DEFAULT '', -- ISO 3166-1 alpha-2; '' unknown
	region_group    TEXT NOT NULL DEFAULT '', -- eu, us, asia, …; '' unknown
	tier            TEXT NOT NULL DEFAULT '', -- RunPod secure | community
	estimated       INTEGER NOT NULL DEFAULT 0, -- not confirmed at the provider
	currency        TEXT NOT NULL DEFAULT 'USD', -- ISO 4217, as the provider publishes
	-- a marketplace or community host (Vast.ai, RunPod community), not the
	-- provider's own data centre; unknown counts as a marketplace (schema 9)
	marketplace     INTEGER NOT NULL DEFAULT 1,
	-- what joins instances of the offer into one multi-node job ("efa",
	-- "infiniband", "roce"; '' = single-node only) and its Gb/s per GPU,
	-- from planner/fabric.c's catalogue (schema 12)
	fabric          TEXT NOT NULL DEFAULT '',
	fabric_gbps     REAL NOT NULL DEFAULT 0,
	PRIMARY KEY (provider, offer, region, spot)
);
-- No secondary indexes: a refresh rewrites a provider's rows (100,000 from
-- one Vast.ai search) and every index costs it; readers load the catalogue
-- once per command and sort it, which takes milliseconds.

-- Commitments (schema 11, issue 29): 1- and 3-year reserved, savings-plan
-- and committed-use prices, kept apart from offers so that nothing that
-- reads on-demand prices sees them. price_per_hour is the effective hourly
-- price over the term (the recurring rate plus the upfront spread over the
-- term's hours); upfront is paid once at the start. Both in currency.
CREATE TABLE IF NOT EXISTS offer_terms (
	provider        TEXT NOT NULL,
	offer           TEXT NOT NULL,
	region          TEXT NOT NULL DEFAULT '',
	term            TEXT NOT NULL CHECK (term IN ('1y', '3y')),
	option          TEXT NOT NULL DEFAULT '', -- "No Upfront", "All Upfront", …
	gpu             TEXT NOT NULL,
	gpu_count       INTEGER NOT NULL CHECK (gpu_count > 0),
	vram_gib        REAL NOT NULL,
	vcpus           REAL NOT NULL DEFAULT 0,
	ram_gib         REAL NOT NULL DEFAULT 0,
	price_per_hour  REAL NOT NULL CHECK (price_per_hour > 0),
	upfront         REAL NOT NULL DEFAULT 0 CHECK (upfront >= 0),
	currency        TEXT NOT NULL DEFAULT 'USD',
	country         TEXT NOT NULL DEFAULT '',
	region_group    TEXT NOT NULL DEFAULT '',
	fetched_at      TEXT NOT NULL,
	source          TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (provider, offer, region, term, option)
);

-- The date of each provider's last replace of its offers (schema 8, issue
-- 16): an offer row dated by it keeps fetched_at = '' and reads as this
-- date, so a refresh whose offer is unchanged but for the date writes
-- nothing to it. Rows of another date (the snapshot's older figures) keep
-- their own.
CREATE TABLE IF NOT EXISTS offer_dates (
	provider   TEXT PRIMARY KEY,
	fetched_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS api_prices (
	provider         TEXT NOT NULL,   -- feed name
	model            TEXT NOT NULL,   -- "vendor/model"
	input_per_token  REAL NOT NULL CHECK (input_per_token >= 0),  -- in currency
	output_per_token REAL NOT NULL CHECK (output_per_token >= 0), -- in currency
	context          INTEGER NOT NULL DEFAULT 0,
	fetched_at       TEXT NOT NULL,
	source           TEXT NOT NULL DEFAULT '',
	country          TEXT NOT NULL DEFAULT '', -- where the host processes data
	region_group     TEXT NOT NULL DEFAULT '',
	estimated        INTEGER NOT NULL DEFAULT 0,
	-- long-prompt tiers, JSON: [{"above": tokens, "input_per_token": USD,
	-- "output_per_token": USD}, …] ascending; '' none
	tiers            TEXT NOT NULL DEFAULT '',
	currency         TEXT NOT NULL DEFAULT 'USD', -- ISO 4217 the prices are in
	jurisdiction     TEXT NOT NULL DEFAULT '', -- country whose law the host is under
	cache_read_per_token  REAL NOT NULL DEFAULT 0, -- cached input read; 0 none
	cache_write_per_token REAL NOT NULL DEFAULT 0, -- input written to cache; 0 none
	PRIMARY KEY (provider, model)
);

-- Reference data, copied from the compiled-in tables for SQL users.
CREATE TABLE IF NOT EXISTS gpus (
	name          TEXT PRIMARY KEY,
	vendor        TEXT NOT NULL,
	vram_gib      REAL NOT NULL,
	bandwidth_gbs REAL NOT NULL,
	fp16_tflops   REAL NOT NULL,
	watts         REAL NOT NULL,
	price_usd     REAL,
	source        TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS models (
	id             TEXT PRIMARY KEY,
	name           TEXT,
	layers         INTEGER,
	hidden         INTEGER,
	heads          INTEGER,
	kv_heads       INTEGER,
	head_dim       INTEGER,
	params_total   REAL,
	params_active  REAL,
	source         TEXT
);

-- One row per provider; the freshness `planner providers` shows.
CREATE TABLE IF NOT EXISTS providers (
	name          TEXT PRIMARY KEY,
	kind          TEXT NOT NULL,      -- rented | api
	last_good     TEXT,               -- last successful refresh
	last_attempt  TEXT,
	last_status   TEXT,               -- ok | failed | skipped
	last_error    TEXT,
	from_snapshot INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE IF NOT EXISTS refresh_runs (
	id          INTEGER PRIMARY KEY,
	provider    TEXT NOT NULL,
	started_at  TEXT NOT NULL,
	ended_at    TEXT,
	status      TEXT NOT NULL,        -- ok | failed | skipped
	rows        INTEGER NOT NULL DEFAULT 0,
	http_status INTEGER NOT NULL DEFAULT 0,
	error       TEXT
);

-- A row whenever an offer's price is new or changes, and one with gone = 1
-- (its last price) when the offer vanishes from its provider's feed.
CREATE TABLE IF NOT EXISTS price_history (
	provider       TEXT NOT NULL,
	offer          TEXT NOT NULL,
	region         TEXT NOT NULL DEFAULT '',
	spot           INTEGER NOT NULL DEFAULT 0,
	gpu            TEXT NOT NULL,
	gpu_count      INTEGER NOT NULL,
	price_per_hour REAL NOT NULL,
	recorded_at    TEXT NOT NULL,
	gone           INTEGER NOT NULL DEFAULT 0,
	currency       TEXT NOT NULL DEFAULT 'USD' -- of price_per_hour, as the offer's
);
CREATE INDEX IF NOT EXISTS price_history_by_gpu ON price_history (gpu, recorded_at);

CREATE TABLE IF NOT EXISTS meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
);

-- Exchange rates, units of each currency per EUR: the ECB's daily reference
-- rates of one day (refresh), or the bundled snapshot's until then.
CREATE TABLE IF NOT EXISTS fx_rates (
	currency    TEXT PRIMARY KEY,     -- ISO 4217
	per_eur     REAL NOT NULL CHECK (per_eur > 0),
	as_of       TEXT NOT NULL,        -- the rates' date, YYYY-MM-DD
	source      TEXT NOT NULL DEFAULT ''
);
