#include "COnnxRuntime.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Positions in the version-1 API table (frozen upstream). */
enum {
    API_GetErrorMessage = 2, API_CreateEnv = 3, API_CreateSession = 7, API_Run = 9, API_CreateSessionOptions = 10,
    API_SetSessionGraphOptimizationLevel = 23, API_SetIntraOpNumThreads = 24, API_SetInterOpNumThreads = 25,
    API_SessionGetInputCount = 30, API_SessionGetOutputCount = 31, API_SessionGetInputName = 36, API_SessionGetOutputName = 37,
    API_CreateTensorWithDataAsOrtValue = 49, API_GetTensorMutableData = 51, API_GetTensorElementType = 60,
    API_GetDimensionsCount = 61, API_GetDimensions = 62, API_GetTensorShapeElementCount = 64, API_GetTensorTypeAndShape = 65,
    API_CreateCpuMemoryInfo = 69, API_AllocatorFree = 76, API_GetAllocatorWithDefaultOptions = 78,
    API_ReleaseEnv = 92, API_ReleaseStatus = 93, API_ReleaseMemoryInfo = 94, API_ReleaseSession = 95, API_ReleaseValue = 96,
    API_ReleaseTensorTypeAndShapeInfo = 99, API_ReleaseSessionOptions = 100,
};

typedef void *status_t; /* OrtStatus*: NULL is success */
typedef struct { const void *(*GetApi)(uint32_t version); const char *(*GetVersionString)(void); } api_base;

struct pco_runtime { void *lib; void *const *api; void *env; void *memory; void *allocator; const char *version; };
struct pco_session { pco_runtime *rt; void *session; size_t n_in, n_out; char **in_names, **out_names; };

#define FN(rt, index, type) ((type)(rt)->api[index])

static int failed(pco_runtime *rt, status_t st, const char *what, char *err, size_t errlen) {
    if (!st) return 0;
    const char *msg = FN(rt, API_GetErrorMessage, const char *(*)(const void *))(st);
    snprintf(err, errlen, "%s: %s", what, msg ? msg : "failed");
    FN(rt, API_ReleaseStatus, void (*)(void *))(st);
    return 1;
}

pco_runtime *pco_load(const char *library_path, char *err, size_t errlen) {
    void *lib = dlopen(library_path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) { snprintf(err, errlen, "cannot load %s: %s", library_path, dlerror()); return NULL; }
    const api_base *(*get_base)(void) = (const api_base *(*)(void))dlsym(lib, "OrtGetApiBase");
    if (!get_base) { snprintf(err, errlen, "%s has no OrtGetApiBase: not ONNX Runtime", library_path); dlclose(lib); return NULL; }
    const api_base *base = get_base();
    void *const *api = base ? (void *const *)base->GetApi(1) : NULL;
    if (!api) { snprintf(err, errlen, "%s does not offer API version 1", library_path); dlclose(lib); return NULL; }
    pco_runtime *rt = calloc(1, sizeof *rt);
    rt->lib = lib; rt->api = api; rt->version = base->GetVersionString();
    /* Logging level 3: errors only (the runtime's own warnings are not ours to print). */
    if (failed(rt, FN(rt, API_CreateEnv, status_t (*)(int, const char *, void **))(3, "photocurate", &rt->env), "CreateEnv", err, errlen) ||
        failed(rt, FN(rt, API_CreateCpuMemoryInfo, status_t (*)(int, int, void **))(0, 0, &rt->memory), "CreateCpuMemoryInfo", err, errlen) ||
        failed(rt, FN(rt, API_GetAllocatorWithDefaultOptions, status_t (*)(void **))(&rt->allocator), "GetAllocator", err, errlen)) {
        free(rt); dlclose(lib); return NULL;
    }
    return rt;
}

const char *pco_version(const pco_runtime *rt) { return rt->version; }

pco_session *pco_session_open(pco_runtime *rt, const char *model_path, int threads, char *err, size_t errlen) {
    void *options = NULL, *session = NULL;
    if (failed(rt, FN(rt, API_CreateSessionOptions, status_t (*)(void **))(&options), "CreateSessionOptions", err, errlen)) return NULL;
    FN(rt, API_SetIntraOpNumThreads, status_t (*)(void *, int))(options, threads);
    FN(rt, API_SetInterOpNumThreads, status_t (*)(void *, int))(options, 1);
    FN(rt, API_SetSessionGraphOptimizationLevel, status_t (*)(void *, int))(options, 99);
    status_t st = FN(rt, API_CreateSession, status_t (*)(void *, const char *, void *, void **))(rt->env, model_path, options, &session);
    FN(rt, API_ReleaseSessionOptions, void (*)(void *))(options);
    if (failed(rt, st, model_path, err, errlen)) return NULL;
    pco_session *s = calloc(1, sizeof *s);
    s->rt = rt; s->session = session;
    FN(rt, API_SessionGetInputCount, status_t (*)(void *, size_t *))(session, &s->n_in);
    FN(rt, API_SessionGetOutputCount, status_t (*)(void *, size_t *))(session, &s->n_out);
    s->in_names = calloc(s->n_in ? s->n_in : 1, sizeof(char *));
    s->out_names = calloc(s->n_out ? s->n_out : 1, sizeof(char *));
    for (size_t i = 0; i < s->n_in; i++)
        FN(rt, API_SessionGetInputName, status_t (*)(void *, size_t, void *, char **))(session, i, rt->allocator, &s->in_names[i]);
    for (size_t i = 0; i < s->n_out; i++)
        FN(rt, API_SessionGetOutputName, status_t (*)(void *, size_t, void *, char **))(session, i, rt->allocator, &s->out_names[i]);
    return s;
}

void pco_session_close(pco_session *s) {
    if (!s) return;
    pco_runtime *rt = s->rt;
    for (size_t i = 0; i < s->n_in; i++) if (s->in_names[i]) FN(rt, API_AllocatorFree, status_t (*)(void *, void *))(rt->allocator, s->in_names[i]);
    for (size_t i = 0; i < s->n_out; i++) if (s->out_names[i]) FN(rt, API_AllocatorFree, status_t (*)(void *, void *))(rt->allocator, s->out_names[i]);
    free(s->in_names); free(s->out_names);
    FN(rt, API_ReleaseSession, void (*)(void *))(s->session);
    free(s);
}

size_t pco_session_inputs(const pco_session *s) { return s->n_in; }
size_t pco_session_outputs(const pco_session *s) { return s->n_out; }
const char *pco_session_input_name(const pco_session *s, size_t i) { return i < s->n_in ? s->in_names[i] : NULL; }
const char *pco_session_output_name(const pco_session *s, size_t i) { return i < s->n_out ? s->out_names[i] : NULL; }

int pco_run(pco_session *s, size_t n_inputs, const float *const *in_data, const int64_t *const *in_shape, const size_t *in_rank,
            size_t n_outputs, float **out_data, int64_t *out_shape, size_t *out_rank, char *err, size_t errlen) {
    pco_runtime *rt = s->rt;
    if (n_inputs != s->n_in || n_outputs != s->n_out) {
        snprintf(err, errlen, "the model takes %zu inputs and gives %zu outputs, not %zu and %zu", s->n_in, s->n_out, n_inputs, n_outputs);
        return -1;
    }
    void **inputs = calloc(n_inputs ? n_inputs : 1, sizeof(void *)), **outputs = calloc(n_outputs ? n_outputs : 1, sizeof(void *));
    int rc = -1;
    for (size_t i = 0; i < n_inputs; i++) {
        size_t count = 1;
        for (size_t d = 0; d < in_rank[i]; d++) count *= (size_t)in_shape[i][d];
        /* 1: float32. The runtime reads the caller's buffer in place. */
        if (failed(rt, FN(rt, API_CreateTensorWithDataAsOrtValue, status_t (*)(void *, void *, size_t, const int64_t *, size_t, int, void **))(
                           rt->memory, (void *)in_data[i], count * sizeof(float), in_shape[i], in_rank[i], 1, &inputs[i]),
                   "input tensor", err, errlen)) goto done;
    }
    if (failed(rt, FN(rt, API_Run, status_t (*)(void *, void *, const char *const *, const void *const *, size_t, const char *const *, size_t, void **))(
                       s->session, NULL, (const char *const *)s->in_names, (const void *const *)inputs, n_inputs,
                       (const char *const *)s->out_names, n_outputs, outputs),
               "Run", err, errlen)) goto done;
    for (size_t i = 0; i < n_outputs; i++) {
        void *info = NULL, *data = NULL;
        size_t rank = 0, count = 0;
        int type = 0;
        if (failed(rt, FN(rt, API_GetTensorTypeAndShape, status_t (*)(void *, void **))(outputs[i], &info), "output shape", err, errlen)) goto done;
        FN(rt, API_GetTensorElementType, status_t (*)(void *, int *))(info, &type);
        FN(rt, API_GetDimensionsCount, status_t (*)(void *, size_t *))(info, &rank);
        if (rank > 8) rank = 8;
        FN(rt, API_GetDimensions, status_t (*)(void *, int64_t *, size_t))(info, out_shape + 8 * i, rank);
        FN(rt, API_GetTensorShapeElementCount, status_t (*)(void *, size_t *))(info, &count);
        FN(rt, API_ReleaseTensorTypeAndShapeInfo, void (*)(void *))(info);
        if (type != 1) { snprintf(err, errlen, "output %s is not float32 (type %d)", s->out_names[i], type); goto done; }
        if (failed(rt, FN(rt, API_GetTensorMutableData, status_t (*)(void *, void **))(outputs[i], &data), "output data", err, errlen)) goto done;
        out_rank[i] = rank;
        out_data[i] = malloc(count ? count * sizeof(float) : 1);
        memcpy(out_data[i], data, count * sizeof(float));
    }
    rc = 0;
done:
    for (size_t i = 0; i < n_inputs; i++) if (inputs[i]) FN(rt, API_ReleaseValue, void (*)(void *))(inputs[i]);
    for (size_t i = 0; i < n_outputs; i++) if (outputs[i]) FN(rt, API_ReleaseValue, void (*)(void *))(outputs[i]);
    free(inputs); free(outputs);
    return rc;
}

void pco_free(void *p) { free(p); }
