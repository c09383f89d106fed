/* ONNX Runtime through its C API, loaded with dlopen from the library the model
 * catalog installs (no headers ship with it). Only the plumbing lives here: the
 * API is a table of function pointers whose first version (calls 0–101) is frozen,
 * and this shim calls the few it needs by their position in that table. */
#ifndef CONNXRUNTIME_H
#define CONNXRUNTIME_H

#include <stddef.h>
#include <stdint.h>

typedef struct pco_runtime pco_runtime;
typedef struct pco_session pco_session;

/* Loads the library and its API table (version 1). NULL with err set on failure. */
pco_runtime *pco_load(const char *library_path, char *err, size_t errlen);
const char *pco_version(const pco_runtime *rt);

/* A session for one model file; intra-op threads as given (0: the runtime's choice). */
pco_session *pco_session_open(pco_runtime *rt, const char *model_path, int threads, char *err, size_t errlen);
void pco_session_close(pco_session *s);
size_t pco_session_inputs(const pco_session *s);
size_t pco_session_outputs(const pco_session *s);
/* Names of input / output i; owned by the session. */
const char *pco_session_input_name(const pco_session *s, size_t i);
const char *pco_session_output_name(const pco_session *s, size_t i);

/* Runs with float inputs and reads float outputs. out_data[i] is malloc'ed (free with
 * pco_free); out_shape is n_outputs × 8 dims, out_rank n_outputs. Returns 0, or -1 with err. */
int pco_run(pco_session *s, size_t n_inputs, const float *const *in_data, const int64_t *const *in_shape, const size_t *in_rank,
            size_t n_outputs, float **out_data, int64_t *out_shape, size_t *out_rank, char *err, size_t errlen);
void pco_free(void *p);

#endif
