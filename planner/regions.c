/* regions.c — the location tables (see regions.h): country → group,
 * cloud region name → country, API host → jurisdiction. Every entry
 * cites where it was read; all were checked on 2026-11-30. */
#include "regions.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Country → group. EU member states: https://european-union.europa.eu/
 * principles-countries-history/eu-countries_en; EEA (IS, LI, NO):
 * https://www.efta.int/eea. The rest by continent (ISO 3166-1 alpha-2
 * codes, https://www.iso.org/obp/ui/#search). */
/* clang-format off */
static const struct {
	const char *cc, *group;
} countries[] = {
    {"AT", "eu"},       {"BE", "eu"},       {"BG", "eu"},       {"HR", "eu"},
    {"CY", "eu"},       {"CZ", "eu"},       {"DK", "eu"},       {"EE", "eu"},
    {"FI", "eu"},       {"FR", "eu"},       {"DE", "eu"},       {"GR", "eu"},
    {"HU", "eu"},       {"IE", "eu"},       {"IT", "eu"},       {"LV", "eu"},
    {"LT", "eu"},       {"LU", "eu"},       {"MT", "eu"},       {"NL", "eu"},
    {"PL", "eu"},       {"PT", "eu"},       {"RO", "eu"},       {"SK", "eu"},
    {"SI", "eu"},       {"ES", "eu"},       {"SE", "eu"},       {"IS", "eu"},
    {"LI", "eu"},       {"NO", "eu"},       {"GB", "europe"},   {"CH", "europe"},
    {"UA", "europe"},   {"RS", "europe"},   {"TR", "europe"},   {"US", "us"},
    {"CA", "americas"}, {"MX", "americas"}, {"BR", "americas"}, {"AR", "americas"},
    {"CL", "americas"}, {"CO", "americas"}, {"JP", "asia"},     {"KR", "asia"},
    {"IN", "asia"},     {"SG", "asia"},     {"TW", "asia"},     {"HK", "asia"},
    {"CN", "asia"},     {"ID", "asia"},     {"MY", "asia"},     {"TH", "asia"},
    {"VN", "asia"},     {"PH", "asia"},     {"AU", "oceania"},  {"NZ", "oceania"},
    {"AE", "mideast"},  {"IL", "mideast"},  {"SA", "mideast"},  {"QA", "mideast"},
    {"BH", "mideast"},  {"ZA", "africa"},   {"NG", "africa"},   {"KE", "africa"},
};

/* One cloud region: its provider, its name, its country, or (country
 * NULL) only the group its name states where no page gave the country. */
struct cloud_region {
	const char *provider, *name, *country, *group;
};

/* AWS: https://docs.aws.amazon.com/global-infrastructure/latest/regions/
 * aws-regions.html (code and location of each region). */
#define AWS(n, c) {"aws", n, c, NULL}
/* Azure: https://learn.microsoft.com/en-us/azure/reliability/regions-list
 * (programmatic name and geography). */
#define AZ(n, c) {"azure", n, c, NULL}
/* GCP: https://cloud.google.com/compute/docs/regions-zones (region and
 * location). */
#define GCP(n, c) {"gcp", n, c, NULL}
/* Lambda: region names from Lambda's API (docs.lambda.ai, the names the
 * terraform provider and dstack's Lambda backend accept); every us-* is in
 * the USA, europe-central-1 is Germany (docs.lambda.ai, as a public
 * catalogue noted on 2026-09-11). The others' countries are not stated on
 * a page found: only the group their names give. */
#define LAM(n, c, g) {"lambda", n, c, g}
/* RunPod: data centre ids and the country SkyPilot's catalogue gives each
 * (skypilot-org/skypilot-catalog, catalogs/v8/runpod/vms.csv, columns
 * Region and AvailabilityZone, stored version
 * 01acdfd419ce5afae1289ff14825b893ced0c196, read 2026-11-30). */
#define RP(n, c) {"runpod", n, c, NULL}
/* Scaleway: zone = region (fr-par Paris, nl-ams Amsterdam, pl-waw Warsaw)
 * and a number; zones fr-par-1..3, nl-ams-1..3, pl-waw-1..3 as a public
 * Scaleway API reference note lists them, the regions' cities as
 * comworkio/comwork-cloud-wiki price_calculator/sizing_pricing.tpl gives
 * them (fr-par France Paris, nl-am Nederland Amsterdam, pl-waw Poland
 * Warszawa), both found with the search tools 2026-11-30. */
#define SCW(n, c) {"scaleway", n, c, NULL}
/* DigitalOcean: region slugs and cities as doctl lists them ("doctl
 * compute region list": nyc New York, sfo San Francisco, ams Amsterdam,
 * sgp Singapore, lon London, fra Frankfurt, tor Toronto, blr Bangalore,
 * syd Sydney; several public repositories' copies of that list, found with
 * find_string 2026-11-30); atl1 Atlanta, where DigitalOcean's GPU Droplets
 * run (its GPU Droplet announcement, 2025; unconfirmed here). */
#define DO(n, c) {"digitalocean", n, c, NULL}
/* Verda: location codes and countries from gpuhunt's test of its Verda
 * provider (dstackai/gpuhunt src/tests/providers/test_verda.py at
 * 4149df93a3b1bea25e3a89a2a9c7244ac799ef33: FIN-01, FIN-02 "country_code"
 * FI, ICE-01 IS); FIN-03, SkyPilot's default region (fetch_verda.py), by
 * its name. */
#define VD(n, c) {"verda", n, c, NULL}
/* Hyperstack: CANADA-1, NORWAY-1 and US-1, the region names its API takes
 * (SkyPilot's fetch_hyperstack.py rows; a public client's valid_regions
 * "NORWAY-1", "CANADA-1"); the country is the one the name gives. */
#define HS(n, c) {"hyperstack", n, c, NULL}
/* JarvisLabs: the regions its server_meta names, from gpuhunt's
 * jarvislabs.py (dstackai/gpuhunt at 035b764b06b523d7182a674f083de9b1c672492e,
 * JARVISLABS_REGION_URLS: india-01, india-noida-01, europe-01; Noida is in
 * India); europe-01 names no country (its host backendeu.jarvislabs.net),
 * so it is grouped eu only. IN1 and IN2 are SkyPilot's names for the two
 * Indian regions (skypilot-org/skypilot-catalog catalogs/v8/jarvislabs/
 * vms.csv at 57d65781a544958d7d07014f062f7d1cad8415a7), the snapshot's. */
#define JL(n, c, g) {"jarvislabs", n, c, g}
/* CloudRift: datacenter names from CloudRift's OpenAPI description
 * (rift-server 0.61.0, the examples of InstanceTypeDatacenter and
 * nodes_per_dc; berops/terraform-provider-cloudrift pkg/cloudriftapi/
 * api.json at c013542eacf971ee214abf3f23c255f48875bbd9, read 2026-12-02):
 * us-east-nc-nr-1 with country_code US there; us-central-tx-nr-1 names
 * no country there, US from its name (unconfirmed). */
#define CR(n, c) {"cloudrift", n, c, NULL}
/* Hot Aisle: the one location gpuhunt gives its VMs (dstackai/gpuhunt
 * src/gpuhunt/providers/hotaisle.py at
 * 35841515de3792fe6be73b0422ac8901b6b929c8, read 2026-12-02); Michigan is
 * in the US. */
#define HA(n, c) {"hotaisle", n, c, NULL}
/* Paperspace: the region name of SkyPilot's Paperspace catalogue
 * (skypilot-org/skypilot-catalog catalogs/v6/paperspace/vms.csv at
 * e520054145d1bce6748bcf18c9a25ddd6ea9a348, read 2026-12-02), the
 * snapshot's; NY2 is New York, in the US. */
#define PS(n, c) {"paperspace", n, c, NULL}
/* Yotta: the region names of SkyPilot's Yotta catalogue
 * (skypilot-org/skypilot-catalog catalogs/v8/yotta/vms.csv at
 * 2811459e36ef1eba8a62a6d42a3284a0bd635c49, read 2026-12-02), the
 * snapshot's; us-east-2 and us-central-2 are in the US (the names alone
 * say so; Yotta publishes no region table in that catalogue). */
#define YT(n, c) {"yotta", n, c, NULL}
/* Nebius: the region names of SkyPilot's Nebius catalogue (skypilot-org/
 * skypilot-catalog catalogs/v8/nebius/vms.csv at
 * 0082b0435f3912ae4c566856b272455cc78f4f61, read 2026-12-02), the
 * snapshot's. No page found here gives their countries: only the group
 * each name states (eu-*, us-*). */
#define NEB(n, g) {"nebius", n, NULL, g}
/* Prime Intellect: its rows' dataCenter tokens with the country each row
 * gives (the recorded response PrimeIntellect-ai/prime tests/data/
 * availability_response.json at 66fb4b704377aa56b0f580756c80f3bc824a797a,
 * "country"; SkyPilot's catalogue skypilot-org/skypilot-catalog catalogs/
 * v8/primeintellect/vms.csv at d9a304ea01e96cd4a043159c60d9326d8de4cf0f,
 * Region = the country, AvailabilityZone = the data centre), read
 * 2026-12-02. */
#define PI(n, c) {"primeintellect", n, c, NULL}
/* Fluidstack: the region names of SkyPilot's Fluidstack catalogue
 * (skypilot-org/skypilot-catalog catalogs/v5/fluidstack/vms.csv, stored
 * version 000c5ee3766dfe64034b4a297d38bdf23885564a, read 2026-11-30:
 * norway_2_eu, norway_4_eu, generic_1_canada); the country is the one the
 * name gives. */
#define FS(n, c) {"fluidstack", n, c, NULL}
/* Seeweb: the four region codes its /plans response names under
 * available_regions (skypilot-org/skypilot-catalog catalogs/v8/seeweb/
 * vms.csv, column Region, commit 004a1aef76542bb40d12fcedaaf091551ddf5fb4,
 * read 2026-11-30); the country is the code's ISO 3166 prefix (it Italy:
 * fr2 Frosinone, mi2 Milan; ch Switzerland: lug1 Lugano; bg Bulgaria:
 * sof1 Sofia; the cities unconfirmed). */
#define SWB(n, c) {"seeweb", n, c, NULL}
/* OVHcloud: a region is a datacentre code and a number; the codes' cities
 * as SpareCores/sc-crawler src/sc_crawler/vendors/ovh.py maps them from
 * https://www.ovhcloud.com/en/public-cloud/regions-availability/ (GRA
 * Gravelines, SBG Strasbourg, RBX Roubaix, DE Frankfurt, UK London, WAW
 * Warsaw, BHS Montreal (Beauharnois), SGP Singapore, SYD Sydney; stored
 * version f1247511f28d05b8ce507237b599d4fbb032eb35, read 2026-11-30); the
 * numbered names as its catalogue comment lists them (BHS1..5, DE1,
 * GRA1..7, SBG1..5, SGP1, SYD1, UK1, WAW1) and its tests use (GRA9). GRA11
 * and SBG7 are assumed from the same codes (unconfirmed). */
#define OVH(n, c) {"ovhcloud", n, c, NULL}
/* Vultr: location ids and their countries as a public Vultr API v2 fleet
 * script lists them (ChimbuezeDavid/Argus-VPN deploy_fleet.py,
 * REGIONS_CATALOG: id, city, countryCode; stored file id 60239050374,
 * read 2026-11-30) and a public test's /v2/regions answer (atl Atlanta
 * US); sea (Seattle) and blr (Bangalore), ids in gpuhunt's Vultr tests,
 * by their cities (unconfirmed). */
#define VUL(n, c) {"vultr", n, c, NULL}
/* CUDO Compute: data centre ids begin with their country's code
 * (br-saopaulo-1, no-luster-1 in gpuhunt's CUDO tests; se-smedjebacken-1
 * in a public snapshot test, stored file id 56709151011; a public fetcher
 * reads the country as the id's first two letters, stored file id
 * 59065430187; read 2026-11-30). */
#define CUDO(n, c) {"cudo", n, c, NULL}
/* TensorDock: the adapter's region is the host node's location.country
 * lower-cased without spaces, as gpuhunt writes it (dstackai/gpuhunt
 * src/gpuhunt/providers/tensordock.py, commit
 * b2fd6ab284e3ce4c2a82f0b47eb5267e94638aa7; "Canada" in the example of
 * ryan-huang1/tensordock-python-sdk DOCS.md, commit
 * 25f636ee894dc122c9a00f16c8b0236c59ea6377; both read 2026-11-30). The
 * marketplace's own list of countries was not found: these are the
 * English short names of ISO 3166-1 (https://www.iso.org/obp/ui/#search)
 * for the countries of the table above, so a host in another country
 * keeps no country. */
#define TD(n, c) {"tensordock", n, c, NULL}
/* OCI: region identifiers as SkyPilot's OCI catalogue lists them
 * (skypilot-org/skypilot-catalog catalogs/v8/oci/vms.csv at
 * 0588751183820cf2dab5c8a89447e8aac9f73fd5, Region column, read
 * 2026-12-02); the country is the city's the identifier names (marseille
 * France, milan Italy, madrid Spain, chicago and phoenix USA). */
#define OCI(n, c) {"oci", n, c, NULL}
/* Akamai Cloud (Linode): the core region ids with the cities a public
 * Linode guide lists for them (FleexSecurity/fleex-docs docs/get-started/
 * linode.md, from GET /v4/regions: eu-central Frankfurt, eu-west London,
 * us-southeast Atlanta, us-central Dallas, us-west Fremont, us-east
 * Newark, ca-central Toronto, ap-south Singapore, ap-northeast Tokyo,
 * ap-west Mumbai, ap-southeast Sydney); the newer ids begin with their
 * country's ISO 3166 code and a city's airport code (us-ord Chicago,
 * de-fra-2 Frankfurt, jp-osa Osaka, id-cgk Jakarta, in the public
 * configs and tests quoted in providers/linode.c and its PROVENANCE.md;
 * the rest of these ids as Linode's region list names them, unconfirmed
 * here one by one). Read 2026-12-02. */
#define LIN(n, c) {"linode", n, c, NULL}
/* Koyeb: region ids and the cities Koyeb's dashboard fixtures name them
 * by (koyeb/control-panel src/api/fixtures.ts catalogRegionFixtures @
 * 597d36d49ccd884dbcc345f2d277ca0f46b04ccf, read 2026-12-02: fra
 * Frankfurt, par Paris, sfo San Francisco, sin Singapore, tyo Tokyo, was
 * Washington, D.C.); the country is the city's. */
#define KOY(n, c) {"koyeb", n, c, NULL}

static const struct cloud_region clouds[] = {
    AWS("us-east-1", "US"), AWS("us-east-2", "US"), AWS("us-west-1", "US"),
    AWS("us-west-2", "US"), AWS("ca-central-1", "CA"), AWS("ca-west-1", "CA"),
    AWS("eu-central-1", "DE"), AWS("eu-central-2", "CH"), AWS("eu-west-1", "IE"),
    AWS("eu-west-2", "GB"), AWS("eu-west-3", "FR"), AWS("eu-north-1", "SE"),
    AWS("eu-south-1", "IT"), AWS("eu-south-2", "ES"), AWS("ap-northeast-1", "JP"),
    AWS("ap-northeast-2", "KR"), AWS("ap-northeast-3", "JP"), AWS("ap-south-1", "IN"),
    AWS("ap-south-2", "IN"), AWS("ap-southeast-1", "SG"), AWS("ap-southeast-2", "AU"),
    AWS("ap-southeast-3", "ID"), AWS("ap-southeast-4", "AU"), AWS("ap-east-1", "HK"),
    AWS("sa-east-1", "BR"), AWS("me-central-1", "AE"), AWS("me-south-1", "BH"),
    AWS("il-central-1", "IL"), AWS("af-south-1", "ZA"),
    AZ("eastus", "US"), AZ("eastus2", "US"), AZ("centralus", "US"),
    AZ("northcentralus", "US"), AZ("southcentralus", "US"), AZ("westcentralus", "US"),
    AZ("westus", "US"), AZ("westus2", "US"), AZ("westus3", "US"),
    AZ("canadacentral", "CA"), AZ("canadaeast", "CA"), AZ("brazilsouth", "BR"),
    AZ("mexicocentral", "MX"), AZ("northeurope", "IE"), AZ("westeurope", "NL"),
    AZ("swedencentral", "SE"), AZ("francecentral", "FR"), AZ("germanywestcentral", "DE"),
    AZ("italynorth", "IT"), AZ("polandcentral", "PL"), AZ("spaincentral", "ES"),
    AZ("norwayeast", "NO"), AZ("switzerlandnorth", "CH"), AZ("uksouth", "GB"),
    AZ("ukwest", "GB"), AZ("japaneast", "JP"), AZ("japanwest", "JP"),
    AZ("koreacentral", "KR"), AZ("southeastasia", "SG"), AZ("eastasia", "HK"),
    AZ("centralindia", "IN"), AZ("southindia", "IN"), AZ("indonesiacentral", "ID"),
    AZ("australiaeast", "AU"), AZ("australiacentral", "AU"), AZ("australiasoutheast", "AU"),
    AZ("uaenorth", "AE"), AZ("qatarcentral", "QA"), AZ("israelcentral", "IL"),
    AZ("southafricanorth", "ZA"),
    GCP("us-central1", "US"), GCP("us-east1", "US"), GCP("us-east4", "US"),
    GCP("us-east5", "US"), GCP("us-south1", "US"), GCP("us-west1", "US"),
    GCP("us-west2", "US"), GCP("us-west3", "US"), GCP("us-west4", "US"),
    GCP("northamerica-northeast1", "CA"), GCP("northamerica-northeast2", "CA"),
    GCP("southamerica-east1", "BR"), GCP("southamerica-west1", "CL"),
    GCP("europe-west1", "BE"), GCP("europe-west2", "GB"), GCP("europe-west3", "DE"),
    GCP("europe-west4", "NL"), GCP("europe-west6", "CH"), GCP("europe-west8", "IT"),
    GCP("europe-west9", "FR"), GCP("europe-west10", "DE"), GCP("europe-west12", "IT"),
    GCP("europe-north1", "FI"), GCP("europe-central2", "PL"),
    GCP("europe-southwest1", "ES"), GCP("asia-east1", "TW"), GCP("asia-east2", "HK"),
    GCP("asia-northeast1", "JP"), GCP("asia-northeast2", "JP"), GCP("asia-northeast3", "KR"),
    GCP("asia-south1", "IN"), GCP("asia-south2", "IN"), GCP("asia-southeast1", "SG"),
    GCP("asia-southeast2", "ID"), GCP("australia-southeast1", "AU"),
    GCP("australia-southeast2", "AU"), GCP("me-west1", "IL"), GCP("me-central1", "QA"),
    GCP("me-central2", "SA"), GCP("africa-south1", "ZA"),
    LAM("us-east-1", "US", NULL), LAM("us-east-2", "US", NULL), LAM("us-east-3", "US", NULL),
    LAM("us-west-1", "US", NULL), LAM("us-west-2", "US", NULL), LAM("us-west-3", "US", NULL),
    LAM("us-south-1", "US", NULL), LAM("us-south-2", "US", NULL),
    LAM("us-south-3", "US", NULL), LAM("us-midwest-1", "US", NULL),
    LAM("us-midwest-2", "US", NULL), LAM("europe-central-1", "DE", NULL),
    LAM("asia-south-1", NULL, "asia"), LAM("asia-northeast-1", NULL, "asia"),
    LAM("asia-northeast-2", NULL, "asia"), LAM("australia-east-1", NULL, "oceania"),
    LAM("me-west-1", NULL, "mideast"),
    SCW("fr-par-1", "FR"), SCW("fr-par-2", "FR"), SCW("fr-par-3", "FR"),
    SCW("nl-ams-1", "NL"), SCW("nl-ams-2", "NL"), SCW("nl-ams-3", "NL"),
    SCW("pl-waw-1", "PL"), SCW("pl-waw-2", "PL"), SCW("pl-waw-3", "PL"),
    DO("nyc1", "US"), DO("nyc2", "US"), DO("nyc3", "US"), DO("sfo1", "US"), DO("sfo2", "US"),
    DO("sfo3", "US"), DO("atl1", "US"), DO("tor1", "CA"), DO("ams2", "NL"), DO("ams3", "NL"),
    DO("fra1", "DE"), DO("lon1", "GB"), DO("sgp1", "SG"), DO("blr1", "IN"), DO("syd1", "AU"),
    VD("FIN-01", "FI"), VD("FIN-02", "FI"), VD("FIN-03", "FI"), VD("ICE-01", "IS"),
    HS("CANADA-1", "CA"), HS("NORWAY-1", "NO"), HS("US-1", "US"),
    JL("india-01", "IN", NULL), JL("india-noida-01", "IN", NULL), JL("europe-01", NULL, "eu"),
    JL("IN1", "IN", NULL), JL("IN2", "IN", NULL),
    CR("us-east-nc-nr-1", "US"), CR("us-central-tx-nr-1", "US"),
    HA("us-michigan-1", "US"),
    PS("East Coast (NY2)", "US"),
    YT("us-east-2", "US"), YT("us-central-2", "US"),
    NEB("eu-north1", "eu"), NEB("eu-west1", "eu"), NEB("us-central1", "us"),
    PI("US-KS-2", "US"), PI("US-MO-1", "US"), PI("US-WA-1", "US"), PI("US-CA-2", "US"),
    PI("CA-MTL-1", "CA"), PI("CA-MTL-3", "CA"), PI("us-midwest-1", "US"), PI("CANADA-1", "CA"),
    PI("FIN-01", "FI"), PI("FIN-02", "FI"), PI("us-east1-a", "US"), PI("us-central1", "US"),
    PI("us-south-2", "US"), PI("eu-north1", "FI"), PI("eu-west1", "FR"),
    FS("norway_2_eu", "NO"), FS("norway_4_eu", "NO"), FS("generic_1_canada", "CA"),
    OVH("GRA1", "FR"), OVH("GRA3", "FR"), OVH("GRA5", "FR"), OVH("GRA7", "FR"),
    OVH("GRA9", "FR"), OVH("GRA11", "FR"), OVH("SBG1", "FR"), OVH("SBG3", "FR"),
    OVH("SBG5", "FR"), OVH("SBG7", "FR"), OVH("RBX1", "FR"), OVH("DE1", "DE"),
    OVH("UK1", "GB"), OVH("WAW1", "PL"), OVH("BHS1", "CA"), OVH("BHS3", "CA"),
    OVH("BHS5", "CA"), OVH("SGP1", "SG"), OVH("SYD1", "AU"),
    VUL("lhr", "GB"), VUL("nrt", "JP"), VUL("sgp", "SG"), VUL("yto", "CA"), VUL("cdg", "FR"),
    VUL("ams", "NL"), VUL("syd", "AU"), VUL("fra", "DE"), VUL("lax", "US"), VUL("ord", "US"),
    VUL("mia", "US"), VUL("dfw", "US"), VUL("ewr", "US"), VUL("icn", "KR"), VUL("sao", "BR"),
    VUL("bom", "IN"), VUL("jnb", "ZA"), VUL("mad", "ES"), VUL("arn", "SE"), VUL("waw", "PL"),
    VUL("mex", "MX"), VUL("tlv", "IL"), VUL("atl", "US"), VUL("sea", "US"), VUL("blr", "IN"),
    CUDO("br-saopaulo-1", "BR"), CUDO("no-luster-1", "NO"), CUDO("se-smedjebacken-1", "SE"),
    RP("EU-CZ-1", "CZ"), RP("EU-DK-1", "DK"), RP("EU-FR-1", "FR"), RP("EU-NL-1", "NL"),
    RP("EU-RO-1", "RO"), RP("EU-SE-1", "SE"), RP("EU-SE-2", "SE"), RP("EUR-IS-1", "IS"),
    RP("EUR-IS-2", "IS"), RP("EUR-IS-3", "IS"), RP("EUR-IS-4", "IS"), RP("EUR-IS-5", "IS"),
    RP("EUR-NO-1", "NO"), RP("EUR-NO-2", "NO"), RP("AP-IN-1", "IN"), RP("AP-IN-2", "IN"),
    RP("AP-JP-1", "JP"), RP("CA-MTL-1", "CA"), RP("CA-MTL-2", "CA"), RP("CA-MTL-3", "CA"),
    RP("CA-MTL-4", "CA"), RP("OC-AU-1", "AU"), RP("SEA-SG-1", "SG"), RP("US-CA-1", "US"),
    RP("US-CA-2", "US"), RP("US-DE-1", "US"), RP("US-GA-1", "US"), RP("US-GA-2", "US"),
    RP("US-IL-1", "US"), RP("US-KS-1", "US"), RP("US-KS-2", "US"), RP("US-KS-3", "US"),
    RP("US-MD-1", "US"), RP("US-MO-1", "US"), RP("US-MO-2", "US"), RP("US-NC-1", "US"),
    RP("US-NC-2", "US"), RP("US-NE-1", "US"), RP("US-OR-1", "US"), RP("US-OR-2", "US"),
    RP("US-PA-1", "US"), RP("US-TX-1", "US"), RP("US-TX-2", "US"), RP("US-TX-3", "US"),
    RP("US-TX-4", "US"), RP("US-TX-5", "US"), RP("US-TX-6", "US"), RP("US-WA-1", "US"),
    SWB("it-fr2", "IT"), SWB("it-mi2", "IT"), SWB("ch-lug1", "CH"), SWB("bg-sof1", "BG"),
    OCI("eu-marseille-1", "FR"), OCI("eu-milan-1", "IT"), OCI("eu-madrid-3", "ES"),
    OCI("us-chicago-1", "US"), OCI("us-phoenix-1", "US"),
    LIN("us-east", "US"), LIN("us-central", "US"), LIN("us-west", "US"),
    LIN("us-southeast", "US"), LIN("ca-central", "CA"), LIN("eu-west", "GB"),
    LIN("eu-central", "DE"), LIN("ap-west", "IN"), LIN("ap-south", "SG"),
    LIN("ap-northeast", "JP"), LIN("ap-southeast", "AU"), LIN("us-ord", "US"),
    LIN("us-sea", "US"), LIN("us-iad", "US"), LIN("us-lax", "US"), LIN("us-mia", "US"),
    LIN("de-fra-2", "DE"), LIN("fr-par", "FR"), LIN("nl-ams", "NL"), LIN("se-sto", "SE"),
    LIN("it-mil", "IT"), LIN("es-mad", "ES"), LIN("gb-lon", "GB"), LIN("in-maa", "IN"),
    LIN("in-bom-2", "IN"), LIN("sg-sin-2", "SG"), LIN("jp-osa", "JP"), LIN("jp-tyo-3", "JP"),
    LIN("id-cgk", "ID"), LIN("br-gru", "BR"), LIN("au-mel", "AU"),
    KOY("fra", "DE"), KOY("par", "FR"), KOY("sfo", "US"), KOY("sin", "SG"), KOY("tyo", "JP"),
    KOY("was", "US"),
    TD("austria", "AT"), TD("belgium", "BE"), TD("bulgaria", "BG"), TD("croatia", "HR"),
    TD("cyprus", "CY"), TD("czechia", "CZ"), TD("czechrepublic", "CZ"), TD("denmark", "DK"),
    TD("estonia", "EE"), TD("finland", "FI"), TD("france", "FR"), TD("germany", "DE"),
    TD("greece", "GR"), TD("hungary", "HU"), TD("ireland", "IE"), TD("italy", "IT"),
    TD("latvia", "LV"), TD("lithuania", "LT"), TD("luxembourg", "LU"), TD("malta", "MT"),
    TD("netherlands", "NL"), TD("poland", "PL"), TD("portugal", "PT"), TD("romania", "RO"),
    TD("slovakia", "SK"), TD("slovenia", "SI"), TD("spain", "ES"), TD("sweden", "SE"),
    TD("iceland", "IS"), TD("liechtenstein", "LI"), TD("norway", "NO"),
    TD("unitedkingdom", "GB"), TD("switzerland", "CH"), TD("ukraine", "UA"),
    TD("serbia", "RS"), TD("turkey", "TR"), TD("unitedstates", "US"), TD("canada", "CA"),
    TD("mexico", "MX"), TD("brazil", "BR"), TD("argentina", "AR"), TD("chile", "CL"),
    TD("colombia", "CO"), TD("japan", "JP"), TD("southkorea", "KR"), TD("india", "IN"),
    TD("singapore", "SG"), TD("taiwan", "TW"), TD("hongkong", "HK"), TD("indonesia", "ID"),
    TD("malaysia", "MY"), TD("thailand", "TH"), TD("vietnam", "VN"), TD("philippines", "PH"),
    TD("australia", "AU"), TD("newzealand", "NZ"), TD("unitedarabemirates", "AE"),
    TD("israel", "IL"), TD("saudiarabia", "SA"), TD("qatar", "QA"), TD("bahrain", "BH"),
    TD("southafrica", "ZA"), TD("nigeria", "NG"), TD("kenya", "KE"),
};

/* Where an API host processes data, and the country whose law the host
 * company is under (law). "openrouter" rows are OpenRouter's;
 * a LiteLLM row's host is the first segment of its id. A host with no
 * location here (azure, bedrock, vertex_ai: the customer's deployment
 * decides, unless the id names it) or left out (nebius: its sub-processor
 * list, https://docs.studio.nebius.com/legal/subprocessors, names a
 * Finnish and a US data centre) never matches a region. */
static const struct {
	const char *host, *country, *group, *law, *source;
} hosts[] = {
    {"openrouter", "US", NULL, "US", "https://openrouter.ai/privacy (OpenRouter, Inc., USA)"},
    {"openai", "US", NULL, "US",
     "https://openai.com/policies/row-privacy-policy (US unless an EU data-residency "
     "project is set up)"},
    {"anthropic", "US", NULL, "US", "https://privacy.anthropic.com (data stored in the US)"},
    {"mistral", NULL, "eu", "FR",
     "https://mistral.ai/cloud/inference/ (requests processed in the EU; the US region "
     "only when chosen)"},
    {"codestral", NULL, "eu", "FR", "https://mistral.ai/cloud/inference/ (Mistral's API)"},
    {"scaleway", "FR", NULL, "FR",
     "https://www.scaleway.com/en/generative-apis/ (hosted in Paris, fr-par)"},
    {"ovhcloud", "FR", NULL, "FR",
     "https://www.ovhcloud.com/en/public-cloud/ai-endpoints/ (hosted in France)"},
    {"groq", "US", NULL, "US", "https://groq.com/privacy-policy (Groq, Inc., USA)"},
    {"together_ai", "US", NULL, "US", "https://www.together.ai/privacy (Together AI, USA)"},
    {"fireworks_ai", "US", NULL, "US", "https://fireworks.ai/privacy-policy (Fireworks AI, USA)"},
    {"deepinfra", "US", NULL, "US", "https://deepinfra.com/privacy (DeepInfra, USA)"},
    {"deepseek", "CN", NULL, "CN",
     "https://platform.deepseek.com/downloads/DeepSeek%20Privacy%20Policy.html (stored in "
     "the PRC)"},
    /* A hyperscaler's row is where the customer deploys: unknown, except
     * where the id names an EU deployment (eu_deployment); the company is
     * under US law wherever its data centre is. */
    {"azure", NULL, NULL, "US", "https://azure.microsoft.com (Microsoft Corporation, USA)"},
    {"bedrock", NULL, NULL, "US", "https://aws.amazon.com (Amazon Web Services, Inc., USA)"},
    {"bedrock_converse", NULL, NULL, "US", "https://aws.amazon.com (Amazon Web Services, Inc., USA)"},
    {"vertex_ai", NULL, NULL, "US", "https://cloud.google.com (Google LLC, USA)"},
};

/* clang-format on */

const char *regions_group_of(const char *country)
{
	for (size_t i = 0; country && i < sizeof countries / sizeof countries[0]; i++)
		if (!strcasecmp(countries[i].cc, country))
			return countries[i].group;
	return "";
}

static void set_location(char *country, size_t clen, char *group, size_t glen, const char *cc,
                         const char *grp)
{
	snprintf(country, clen, "%s", cc ? cc : "");
	for (char *p = country; *p; p++)
		*p = (char)toupper((unsigned char)*p);
	snprintf(group, glen, "%s", grp ? grp : regions_group_of(cc));
}

/* A table entry for provider's region name, or NULL. */
static const struct cloud_region *cloud_find(const char *provider, const char *name)
{
	for (size_t i = 0; i < sizeof clouds / sizeof clouds[0]; i++)
		if (!strcmp(clouds[i].provider, provider) && !strcasecmp(clouds[i].name, name))
			return &clouds[i];
	return NULL;
}

/* The country code a Vast-style geolocation ends in ("Texas, US", "US"),
 * when the table knows it; NULL otherwise. */
static const char *trailing_country(const char *region)
{
	const char *comma = strrchr(region, ',');
	const char *cc = comma ? comma + 1 : region;
	while (*cc == ' ')
		cc++;
	if (strlen(cc) != 2 || !isalpha((unsigned char)cc[0]) || !isalpha((unsigned char)cc[1]))
		return NULL;
	return *regions_group_of(cc) ? cc : NULL;
}

void regions_locate_offer(struct offer *o)
{
	o->country[0] = o->region_group[0] = '\0';
	if (!o->region[0])
		return;
	const struct cloud_region *c = cloud_find(o->provider, o->region);
	char zone[sizeof o->region];
	size_t len = strlen(o->region);
	/* A marketplace row's region is "<cloud>/<region>" (shadeform.c): the
	 * cloud's own entry, when the table has that cloud ("lambda/us-east-1",
	 * "hyperstack/canada-1"). */
	const char *slash = strchr(o->region, '/');
	if (!c && slash && !strcmp(o->provider, "shadeform")) {
		snprintf(zone, sizeof zone, "%.*s", (int)(slash - o->region), o->region);
		c = cloud_find(zone, slash + 1);
	}
	/* A GCP zone ("europe-west4-a") is in its region. */
	if (!c && len > 2 && o->region[len - 2] == '-') {
		snprintf(zone, sizeof zone, "%.*s", (int)(len - 2), o->region);
		c = cloud_find(o->provider, zone);
	}
	if (c) {
		set_location(o->country, sizeof o->country, o->region_group, sizeof o->region_group,
		             c->country, c->group);
		return;
	}
	const char *cc = trailing_country(o->region);
	if (cc)
		set_location(o->country, sizeof o->country, o->region_group, sizeof o->region_group,
		             cc, NULL);
}

/* An id that names an EU deployment of a hyperscaler's API (LiteLLM's
 * keys, map of 2026-07-24): Azure OpenAI's EU data zone "azure/eu/…"
 * (https://learn.microsoft.com/azure/ai-services/openai/how-to/
 * deployment-types, "Data Zone": processed within the EU), Bedrock's EU
 * cross-region profiles "bedrock_converse/eu.…" (routed within EU regions,
 * https://docs.aws.amazon.com/bedrock/latest/userguide/
 * cross-region-inference.html) and a Bedrock region "bedrock/eu-west-3/…"
 * (the region's country). Vertex AI's keys name no region. */
static void eu_deployment(struct api_price *a, const char *host)
{
	const char *rest = a->model + strlen(host);
	if (*rest != '/')
		return;
	rest++;
	if (!strcmp(host, "azure") && !strncmp(rest, "eu/", 3))
		set_location(a->country, sizeof a->country, a->region_group, sizeof a->region_group,
		             NULL, "eu");
	else if (!strcmp(host, "bedrock_converse") && !strncmp(rest, "eu.", 3))
		set_location(a->country, sizeof a->country, a->region_group, sizeof a->region_group,
		             NULL, "eu");
	else if (!strcmp(host, "bedrock")) {
		char region[32];
		snprintf(region, sizeof region, "%.*s", (int)strcspn(rest, "/"), rest);
		const struct cloud_region *c =
		    rest[strlen(region)] == '/' ? cloud_find("aws", region) : NULL;
		if (c)
			set_location(a->country, sizeof a->country, a->region_group,
			             sizeof a->region_group, c->country, c->group);
	}
}

void regions_locate_api(struct api_price *a)
{
	a->country[0] = a->region_group[0] = a->jurisdiction[0] = '\0';
	char host[32];
	if (!strcmp(a->provider, "openrouter"))
		snprintf(host, sizeof host, "openrouter");
	else
		snprintf(host, sizeof host, "%.*s", (int)strcspn(a->model, "/"), a->model);
	for (size_t i = 0; i < sizeof hosts / sizeof hosts[0]; i++)
		if (!strcasecmp(hosts[i].host, host)) {
			if (hosts[i].country || hosts[i].group)
				set_location(a->country, sizeof a->country, a->region_group,
				             sizeof a->region_group, hosts[i].country,
				             hosts[i].group);
			snprintf(a->jurisdiction, sizeof a->jurisdiction, "%s", hosts[i].law);
			eu_deployment(a, hosts[i].host);
			return;
		}
}

bool regions_match(const char *want, const char *region, const char *country, const char *group)
{
	if (!want || !*want)
		return true;
	return (group && *group && !strcasecmp(want, group)) ||
	       (country && *country && !strcasecmp(want, country)) ||
	       (region && *region && !strcasecmp(want, region));
}

bool regions_known(const char *want)
{
	static const char *const groups[] = {"eu",   "europe",  "us",      "americas",
	                                     "asia", "oceania", "mideast", "africa"};
	for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++)
		if (!strcasecmp(want, groups[i]))
			return true;
	if (*regions_group_of(want))
		return true;
	for (size_t i = 0; i < sizeof clouds / sizeof clouds[0]; i++)
		if (!strcasecmp(clouds[i].name, want))
			return true;
	return false;
}
