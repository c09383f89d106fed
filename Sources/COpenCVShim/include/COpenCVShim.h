#ifndef COPENCVSHIM_H
#define COPENCVSHIM_H
// OpenCV 4 (Debian libopencv-features2d-dev, libopencv-calib3d-dev) behind a C interface:
// ORB features, a multi-probe LSH index over them, homography verification and
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

/// An LSH index over many images' descriptors (`owners[i]` is the image of descriptor i).
typedef struct pc_cv_lsh pc_cv_lsh;
pc_cv_lsh *pc_cv_lsh_build(const uint8_t *descriptors, const int32_t *owners, int count,
                           int tables, int key_bits, int probe_level);
void pc_cv_lsh_free(pc_cv_lsh *index);
/// For each query descriptor, its two nearest indexed descriptors; a query whose
/// nearest is closer than `ratio` × the second-nearest of another image votes
/// for the nearest's image. `votes` (one per image, zeroed by the caller) gets the counts.
/// Returns the number of votes cast, or -1.
int pc_cv_lsh_vote(const pc_cv_lsh *index, const uint8_t *query, int count, float ratio,
                   int32_t *votes, int images);

/// Matches a reference image's features to a query's (Hamming, ratio test) and fits
/// a homography reference → query with RANSAC. `h` gets 9 values (row-major).
/// Returns the RANSAC inlier count (0 when no fit), `*matches` the ratio-test survivors, or -1.
int pc_cv_verify(const float *query_kp, const uint8_t *query_desc, int query_count,
                 const float *ref_kp, const uint8_t *ref_desc, int ref_count,
                 float ratio, float ransac_px, double *h, int *matches);

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
