/* Non-variadic wrappers over the libvips calls Swift cannot make directly
 * (variadic functions and macros), and libvips' own reduce loop for the JPEG path
 * (pcv_reduce_rows, pcv_transpose). No judgement of the project lives here. */
#ifndef CVIPSSHIM_H
#define CVIPSSHIM_H

#include <stddef.h>
#include <vips/vips.h>

/* vips_init once, one libvips worker thread per call, no operation cache. */
int pcv_init(const char *argv0);
/* libvips' run-time SIMD (liborc) on or off, process-wide; read at each operation's build. */
int pcv_simd_enabled(void);

/* Copies the libvips error buffer into buf (NUL-terminated) and clears it. */
void pcv_error_take(char *buf, size_t len);

/* Name of the loader libvips would pick for a file ("jpegload", ...), or NULL. */
const char *pcv_loader_for(const char *path);

/* Opens a file lazily (header only until pixels are read). shrink > 1 asks a
 * JPEG loader for shrink-on-load. strict != 0 fails on any decoder warning
 * (corrupt data); otherwise only truncated files fail. */
VipsImage *pcv_open(const char *path, int shrink, int sequential, int strict);
VipsImage *pcv_new_from_memory(const void *data, size_t len, int width, int height, int bands);

int pcv_get_int(VipsImage *image, const char *name, int *out);
int pcv_get_blob(VipsImage *image, const char *name, const void **data, size_t *len);

int pcv_resize(VipsImage *in, VipsImage **out, double hscale, double vscale);
int pcv_copy_memory(VipsImage *in, VipsImage **out);
int pcv_autorot(VipsImage *in, VipsImage **out);
int pcv_rot90(VipsImage *in, VipsImage **out, int quarterTurns);
/* Any interpretation, bands and format to 3-band 8-bit sRGB (alpha flattened on white). */
int pcv_to_srgb8(VipsImage *in, VipsImage **out);
int pcv_to_linear(VipsImage *in, VipsImage **out);
int pcv_from_linear(VipsImage *in, VipsImage **out);
int pcv_extract_area(VipsImage *in, VipsImage **out, int left, int top, int width, int height);
int pcv_similarity(VipsImage *in, VipsImage **out, double scale, double angle);
int pcv_gaussblur(VipsImage *in, VipsImage **out, double sigma);
int pcv_conv(VipsImage *in, VipsImage **out, const double *mask, int width, int height);
int pcv_linear(VipsImage *in, VipsImage **out, const double *a, const double *b, int n);
int pcv_gaussnoise(VipsImage **out, int width, int height, double sigma, int seed);
int pcv_add(VipsImage *a, VipsImage *b, VipsImage **out);
int pcv_bandjoin3(VipsImage *a, VipsImage *b, VipsImage *c, VipsImage **out);
int pcv_cast_uchar(VipsImage *in, VipsImage **out);
int pcv_insert(VipsImage *main, VipsImage *sub, VipsImage **out, int x, int y);
int pcv_black(VipsImage **out, int width, int height, int bands);
int pcv_text(VipsImage **out, const char *text, int width, int dpi);
int pcv_thumbnail(const char *path, VipsImage **out, int width);

int pcv_jpegsave_buffer(VipsImage *in, void **buf, size_t *len, int quality, int strip);

/* Pixel access: a freshly g_malloc'd copy the caller frees with pcv_free. */
void *pcv_write_to_memory(VipsImage *in, size_t *len);
void pcv_free(void *p);
void pcv_unref(VipsImage *image);

/* libvips 8.14's reduce loop (plain C path) over rows: output row j is the sum of `points`
 * input rows from first[j] (clamped into the image), weighed by the 12-bit integer mask at
 * masks + phase[j] * points (1 to 64 points), then (v + 2048) >> 12 clipped to 0..255. Byte for byte what
 * vips_reducev computes; `Lanczos3Reducer` plans it. */
void pcv_reduce_rows(const unsigned char *src, int rows, int row_bytes, unsigned char *dst, int out_rows,
                     const int *first, const int *phase, const int *masks, int points);
/* A width x height image of `bands` bytes a pixel as a height x width one. */
void pcv_transpose(const unsigned char *src, int width, int height, int bands, unsigned char *dst);

#endif
