#ifndef COPENCVSHIM_H
#define COPENCVSHIM_H
// OpenCV 4 (Debian libopencv-features2d-dev, libopencv-calib3d-dev) behind a C interface:
// ORB features, a RANSAC homography fit and
// the perspective warp the cover generator needs. Every call catches C++ exceptions
// and reports them through `pc_cv_last_error`.
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Bytes of one ORB descriptor.
#define PC_CV_DESCRIPTOR_BYTES 32

/// The message of the last failed call on this thread ("" when none).
const char *pc_cv_last_error(void);

/// ORB keypoints of an 8-bit grey image: up to `max_features`, strongest first.
/// `keypoints` gets x, y, size, angle per point (4 floats); `descriptors` 32 bytes each.
/// Returns the count, or -1 on failure.
int pc_cv_orb(const uint8_t *gray, int width, int height, int max_features, int fast_threshold,
              float *keypoints, uint8_t *descriptors);

/// Fits a homography `from` → `to` (`count` point pairs, x, y each) with RANSAC
/// (a fixed seed: the same input gives the same fit). `h` gets 9 values (row-major).
/// `inlier` (count bytes) gets 1 for each pair the fit keeps. Returns the inlier count (0 when no fit), or -1.
int pc_cv_fit_homography(const float *from, const float *to, int count, float ransac_px, double *h, uint8_t *inlier);

/// Warps an 8-bit image (1–4 channels, interleaved) by the homography `h` (source → destination),
/// bilinear, into `dst` (dst_width × dst_height, same channels). Pixels from outside the source keep `dst`'s values.
/// Returns 0, or -1.
int pc_cv_warp(const uint8_t *src, int src_width, int src_height, int channels, const double *h,
               uint8_t *dst, int dst_width, int dst_height);

/// The homography mapping 4 source points to 4 destination points (x, y pairs). Returns 0, or -1.
int pc_cv_perspective(const float *src_points, const float *dst_points, double *h);

#ifdef __cplusplus
}
#endif
#endif
