/* init_spec.h — `planner init`'s core: the answers a newcomer gives (what
 * the model is for, how many people or documents, how sensitive the data
 * is, the country, the GPUs on hand) turned into a commented job spec that
 * compare reads, and the rule that suggests a model for the task. The
 * command layer (cmd_init.c) asks the questions; nothing here prints. */
#ifndef PLANNER_INIT_SPEC_H
#define PLANNER_INIT_SPEC_H

#include <stdbool.h>

#include "refdata.h"
#include "util.h"

/* What the model is for. */
enum init_task {
	INIT_CHAT,      /* a chat assistant for N people */
	INIT_DOCUMENTS, /* documents a month, read in a batch */
	INIT_CODING,    /* coding help for N people */
	INIT_FINETUNE,  /* fine-tuning on documents a month */
};

/* How sensitive the data is, as a person says it; mapped onto the spec's
 * data: classes (init_data_class). */
enum init_data {
	INIT_DATA_PUBLIC,
	INIT_DATA_INTERNAL,
	INIT_DATA_CONFIDENTIAL,
	INIT_DATA_RESTRICTED,
};

/* The answers; init_answers_default fills every one. Strings are the
 * caller's and must outlive init_spec_text. */
struct init_answers {
	enum init_task task;
	double users;                 /* chat, coding */
	double requests_per_user_day; /* chat, coding */
	double documents;             /* documents, fine-tuning: a month */
	double tokens_per_document;   /* documents, fine-tuning */
	enum init_data data;
	bool eu;                      /* regions: [eu] */
	bool office_only;             /* data: restricted, whatever data says */
	const char *country;          /* ISO 3166 code, NULL for none (US defaults) */
	const char *use;              /* "business" or "household", NULL for the default */
	const char *owned;            /* a GPU name of the device table, NULL for none */
	double owned_count;           /* GPUs of that kind on hand */
};

/* The defaults a question takes when it is not answered (--yes). */
void init_answers_default(struct init_answers *a);

/* Names of the enums' values ("chat"), and the value of a name, any case;
 * false when the name is not one (*out untouched). */
const char *init_task_name(enum init_task t);
bool init_task_parse(const char *s, enum init_task *out);
const char *init_data_name(enum init_data d);
bool init_data_parse(const char *s, enum init_data *out);
/* The lists, "chat, documents, coding, finetune", for messages. */
extern const char INIT_TASKS[];
extern const char INIT_DATA_LEVELS[];

/* The model the rule suggests for task: the smallest dense model (no
 * experts) of the reference data with at least 8B parameters (14B for
 * coding) that has an API model (so the API route compares too); ties go
 * to the first in schema/models.json. NULL when none qualifies. */
const struct model_spec *init_suggest_model(const struct refdata *ref, enum init_task t);
/* The rule in words, for the spec's comment and the command's note. */
const char *init_suggest_rule(enum init_task t);

/* Checks the country and the GPU name of a against the reference data.
 * Returns PLANNER_OK, or PLANNER_EINPUT with *err set (the nearest name
 * and the list), as init_spec_text would. */
int init_check_answers(const struct refdata *ref, const struct init_answers *a, char **err);

/* Checks the answers against the reference data (country, GPU name) and
 * writes the commented spec into *out (malloc'd, the caller frees it):
 * the spec is parsed with jobspec_parse before it is returned, and the
 * arithmetic from people to tokens in its comments is the parser's own
 * (job_usage_text). Returns PLANNER_OK, PLANNER_EINPUT with *err set (an
 * unknown country or GPU, with the nearest name and the list; a spec the
 * parser refuses), or PLANNER_ESYS when out of memory. */
int init_spec_text(const struct refdata *ref, const struct init_answers *a, char **out,
                   char **err);

#endif
