/* dlib's face landmarks (5 points) and face embedding network (ResNet, 128-d),
 * behind a C interface Swift can call. Only the shim: no logic of ours. */
#ifndef CDLIBSHIM_H
#define CDLIBSHIM_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif

typedef struct pcd_model pcd_model;

/* Loads shape_predictor_5_face_landmarks.dat and dlib_face_recognition_resnet_model_v1.dat.
 * NULL on failure, with the reason in err. */
pcd_model *pcd_load(const char *shape_predictor, const char *network, char *err, size_t errlen);

/* One 128-d descriptor per box (x, y, w, h in pixels of the RGB image), written to out
 * (n * 128 floats); the 5 landmarks found (n * 10 floats, x y pairs) to marks if not NULL.
 * Returns 0, or -1 with the reason in err. Calls on one model are serialised. */
int pcd_embed(pcd_model *m, const unsigned char *rgb, int width, int height,
              const float *boxes, int n, float *out, float *marks, char *err, size_t errlen);

void pcd_free(pcd_model *m);

#ifdef __cplusplus
}
#endif
#endif
