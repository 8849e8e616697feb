/* api_model.h — one key for the many spellings of an open model's id, so
 * that `api_models: [meta-llama/llama-3.1-70b-instruct]` (or the
 * reference id "llama-3.1-70b") finds the hosted copies LiteLLM and
 * OpenRouter list under each host's own naming:
 * deepinfra/meta-llama/Meta-Llama-3.1-70B-Instruct,
 * fireworks_ai/accounts/fireworks/models/llama-v3p1-70b-instruct,
 * ovhcloud/Meta-Llama-3_1-70B-Instruct, cerebras/llama3.1-70b, … */
#ifndef PLANNER_API_MODEL_H
#define PLANNER_API_MODEL_H

#include <stdbool.h>
#include <stddef.h>

/* Writes the matching key of `id` into buf ("llama-3.1-70b") and returns
 * true when the id names an open model by its parameter count (a token
 * like "70b", "8x7b", "0.5b"); false (buf then holds the key anyway) for
 * ids without one ("openai/gpt-4", "deepseek/deepseek-chat"), which only
 * match exactly: "gpt-4" must never find "gpt-4-turbo". The rule:
 *   1. the last '/'-separated segment, lower-cased;
 *   2. split into words at every character that is not a letter or a
 *      digit, except '.' and '_' between two digits ("3_1" is "3.1");
 *   3. "v3p1" → "3.1", "v0.3" → "0.3"; "llama3.1" → "llama" "3.1" (a run
 *      of two or more letters followed by a digit);
 *   4. drop a leading "meta" or "open" (Meta's and Mistral's prefixes),
 *      and the words a host adds for the same weights: instruct, it,
 *      turbo, versatile, instant, fp8, fp16, bf16, maas, hf;
 *   5. join the words with '-'.
 * Fine-tunes keep their own words ("hermes-3-llama-3.1-70b"), so they do
 * not match the base model. */
bool api_model_key(const char *id, char *buf, size_t len);

/* True when the stored `model` answers a request for `want`: the same id
 * (case-insensitive), or both keys equal and `want`'s is an open model's. */
bool api_model_matches(const char *want, const char *model);

#endif
