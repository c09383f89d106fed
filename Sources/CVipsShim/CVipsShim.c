#include "CVipsShim.h"
#include <string.h>
#include <vips/vector.h>

/* libvips reports per-file problems (bad EXIF units, corrupt tiles) as GLib
 * warnings on stderr; the engine reports per-file errors itself. */
static void pcv_quiet(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)level; (void)message; (void)data;
}

int pcv_init(const char *argv0) {
    if (VIPS_INIT(argv0)) return -1;
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO, pcv_quiet, NULL);
    vips_concurrency_set(1);
    /* liborc (run-time SIMD behind reduce and convolution) compiles a program per
     * operation, and its code allocator raced between our tasks: it crashed the art
     * server once and the unit tests once (SIGSEGV in liborc). The plain C paths are
     * a few levels apart in pixels and a little slower. */
    vips_vector_set_enabled(FALSE);
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    vips_cache_set_max_files(0);
    return 0;
}

int pcv_simd_enabled(void) {
    return vips_vector_isenabled() ? 1 : 0;
}

/* vips_error_buffer_copy copies and clears under libvips' lock: reading the
 * buffer and clearing it in two calls raced with other tasks' failing decodes. */
void pcv_error_take(char *buf, size_t len) {
    char *e = vips_error_buffer_copy();
    if (len > 0) {
        strncpy(buf, e ? e : "", len - 1);
        buf[len - 1] = 0;
    }
    g_free(e);
}

const char *pcv_loader_for(const char *path) { return vips_foreign_find_load(path); }

VipsImage *pcv_open(const char *path, int shrink, int sequential, int strict) {
    VipsAccess access = sequential ? VIPS_ACCESS_SEQUENTIAL : VIPS_ACCESS_RANDOM;
    VipsFailOn fail = strict ? VIPS_FAIL_ON_WARNING : VIPS_FAIL_ON_TRUNCATED;
    if (shrink > 1)
        return vips_image_new_from_file(path, "access", access, "fail_on", fail, "shrink", shrink, NULL);
    return vips_image_new_from_file(path, "access", access, "fail_on", fail, NULL);
}


VipsImage *pcv_new_from_memory(const void *data, size_t len, int width, int height, int bands) {
    return vips_image_new_from_memory_copy(data, len, width, height, bands, VIPS_FORMAT_UCHAR);
}

int pcv_get_int(VipsImage *image, const char *name, int *out) {
    if (vips_image_get_typeof(image, name) == 0) return -1;
    return vips_image_get_int(image, name, out);
}

int pcv_get_blob(VipsImage *image, const char *name, const void **data, size_t *len) {
    if (vips_image_get_typeof(image, name) == 0) return -1;
    return vips_image_get_blob(image, name, data, len);
}


int pcv_resize(VipsImage *in, VipsImage **out, double hscale, double vscale) {
    return vips_resize(in, out, hscale, "vscale", vscale, "kernel", VIPS_KERNEL_LANCZOS3, NULL);
}
int pcv_copy_memory(VipsImage *in, VipsImage **out) {
    *out = vips_image_copy_memory(in);
    return *out ? 0 : -1;
}
int pcv_autorot(VipsImage *in, VipsImage **out) { return vips_autorot(in, out, NULL); }
int pcv_rot90(VipsImage *in, VipsImage **out, int q) {
    VipsAngle a = q == 1 ? VIPS_ANGLE_D90 : q == 2 ? VIPS_ANGLE_D180 : q == 3 ? VIPS_ANGLE_D270 : VIPS_ANGLE_D0;
    return vips_rot(in, out, a, NULL);
}

int pcv_to_srgb8(VipsImage *in, VipsImage **out) {
    VipsImage *t[4] = {0};
    VipsImage *cur = in;
    int rc = 0;
    g_object_ref(cur);
    if (vips_image_hasalpha(cur)) {
        VipsArrayDouble *bg = vips_array_double_newv(1, 255.0);
        rc = vips_flatten(cur, &t[0], "background", bg, NULL);
        vips_area_unref(VIPS_AREA(bg));
        g_object_unref(cur);
        if (rc) return rc;
        cur = t[0];
    }
    rc = vips_colourspace(cur, &t[1], VIPS_INTERPRETATION_sRGB, NULL);
    g_object_unref(cur);
    if (rc) return rc;
    cur = t[1];
    if (cur->Bands > 3) {
        rc = vips_extract_band(cur, &t[2], 0, "n", 3, NULL);
        g_object_unref(cur);
        if (rc) return rc;
        cur = t[2];
    } else if (cur->Bands < 3) {
        VipsImage *three[3] = {cur, cur, cur};
        rc = vips_bandjoin(three, &t[2], 3, NULL);
        g_object_unref(cur);
        if (rc) return rc;
        cur = t[2];
    }
    rc = vips_cast_uchar(cur, &t[3], NULL);
    g_object_unref(cur);
    if (rc) return rc;
    *out = t[3];
    return 0;
}

int pcv_to_linear(VipsImage *in, VipsImage **out) {
    return vips_colourspace(in, out, VIPS_INTERPRETATION_scRGB, NULL);
}
int pcv_from_linear(VipsImage *in, VipsImage **out) {
    return vips_colourspace(in, out, VIPS_INTERPRETATION_sRGB, NULL);
}
int pcv_extract_area(VipsImage *in, VipsImage **out, int left, int top, int width, int height) {
    return vips_extract_area(in, out, left, top, width, height, NULL);
}
int pcv_similarity(VipsImage *in, VipsImage **out, double scale, double angle) {
    return vips_similarity(in, out, "scale", scale, "angle", angle, NULL);
}
int pcv_gaussblur(VipsImage *in, VipsImage **out, double sigma) {
    return vips_gaussblur(in, out, sigma, "precision", VIPS_PRECISION_FLOAT, NULL);
}
int pcv_conv(VipsImage *in, VipsImage **out, const double *mask, int width, int height) {
    VipsImage *m = vips_image_new_matrix_from_array(width, height, mask, width * height);
    if (!m) return -1;
    int rc = vips_conv(in, out, m, "precision", VIPS_PRECISION_FLOAT, NULL);
    g_object_unref(m);
    return rc;
}
int pcv_linear(VipsImage *in, VipsImage **out, const double *a, const double *b, int n) {
    return vips_linear(in, out, a, b, n, NULL);
}
int pcv_gaussnoise(VipsImage **out, int width, int height, double sigma, int seed) {
    return vips_gaussnoise(out, width, height, "sigma", sigma, "mean", 0.0, "seed", seed, NULL);
}
int pcv_add(VipsImage *a, VipsImage *b, VipsImage **out) { return vips_add(a, b, out, NULL); }
int pcv_bandjoin3(VipsImage *a, VipsImage *b, VipsImage *c, VipsImage **out) {
    VipsImage *in[3] = {a, b, c};
    return vips_bandjoin(in, out, 3, NULL);
}
int pcv_cast_uchar(VipsImage *in, VipsImage **out) { return vips_cast_uchar(in, out, NULL); }
int pcv_insert(VipsImage *main, VipsImage *sub, VipsImage **out, int x, int y) {
    return vips_insert(main, sub, out, x, y, NULL);
}
int pcv_black(VipsImage **out, int width, int height, int bands) {
    return vips_black(out, width, height, "bands", bands, NULL);
}
int pcv_text(VipsImage **out, const char *text, int width, int dpi) {
    return vips_text(out, text, "width", width, "dpi", dpi, "font", "sans", NULL);
}
int pcv_thumbnail(const char *path, VipsImage **out, int width) {
    return vips_thumbnail(path, out, width, NULL);
}
int pcv_jpegsave_buffer(VipsImage *in, void **buf, size_t *len, int quality, int strip) {
    return vips_jpegsave_buffer(in, buf, len, "Q", quality, "strip", strip, NULL);
}
void *pcv_write_to_memory(VipsImage *in, size_t *len) { return vips_image_write_to_memory(in, len); }
void pcv_free(void *p) { g_free(p); }
void pcv_unref(VipsImage *image) { if (image) g_object_unref(image); }

/* libvips 8.14's reduce inner loop (its plain C path), rows at a time with SSE2: the same
 * integer sums, rounding and clipping, so the bytes are libvips' own. */
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static inline const unsigned char *pcv_row(const unsigned char *src, int rows, int row_bytes, int r) {
    return src + (size_t)(r < 0 ? 0 : r >= rows ? rows - 1 : r) * (size_t)row_bytes;
}

void pcv_reduce_rows(const unsigned char *src, int rows, int row_bytes, unsigned char *dst, int out_rows,
                     const int *first, const int *phase, const int *masks, int points) {
    const unsigned char *line[65];
    if (points < 1 || points > 64) return;
    for (int j = 0; j < out_rows; j++) {
        const int *c = masks + (size_t)phase[j] * (size_t)points;
        for (int i = 0; i < points; i++) line[i] = pcv_row(src, rows, row_bytes, first[j] + i);
        line[points] = line[points - 1]; /* a partner for an odd last tap, weighed 0 */
        unsigned char *q = dst + (size_t)j * (size_t)row_bytes;
        int e = 0;
#if defined(__SSE2__)
        const __m128i zero = _mm_setzero_si128(), half = _mm_set1_epi32(2048);
        for (; e + 16 <= row_bytes; e += 16) {
            __m128i s0 = zero, s1 = zero, s2 = zero, s3 = zero;
            for (int i = 0; i < points; i += 2) {
                /* pmaddwd takes two taps at once: (p_i, p_i+1) · (c_i, c_i+1), exact in 32 bits. */
                const int ci = c[i], cn = i + 1 < points ? c[i + 1] : 0;
                const __m128i w = _mm_set1_epi32((int)(((unsigned)cn << 16) | ((unsigned)ci & 0xffff)));
                const __m128i a = _mm_loadu_si128((const __m128i *)(line[i] + e));
                const __m128i b = _mm_loadu_si128((const __m128i *)(line[i + 1] + e));
                const __m128i alo = _mm_unpacklo_epi8(a, zero), ahi = _mm_unpackhi_epi8(a, zero);
                const __m128i blo = _mm_unpacklo_epi8(b, zero), bhi = _mm_unpackhi_epi8(b, zero);
                s0 = _mm_add_epi32(s0, _mm_madd_epi16(_mm_unpacklo_epi16(alo, blo), w));
                s1 = _mm_add_epi32(s1, _mm_madd_epi16(_mm_unpackhi_epi16(alo, blo), w));
                s2 = _mm_add_epi32(s2, _mm_madd_epi16(_mm_unpacklo_epi16(ahi, bhi), w));
                s3 = _mm_add_epi32(s3, _mm_madd_epi16(_mm_unpackhi_epi16(ahi, bhi), w));
            }
            s0 = _mm_srai_epi32(_mm_add_epi32(s0, half), 12);
            s1 = _mm_srai_epi32(_mm_add_epi32(s1, half), 12);
            s2 = _mm_srai_epi32(_mm_add_epi32(s2, half), 12);
            s3 = _mm_srai_epi32(_mm_add_epi32(s3, half), 12);
            /* Saturating packs clip to 0..255 as VIPS_CLIP does. */
            _mm_storeu_si128((__m128i *)(q + e), _mm_packus_epi16(_mm_packs_epi32(s0, s1), _mm_packs_epi32(s2, s3)));
        }
#endif
        for (; e < row_bytes; e++) {
            int sum = 0;
            for (int i = 0; i < points; i++) sum += c[i] * line[i][e];
            sum = (sum + 2048) >> 12;
            q[e] = (unsigned char)(sum < 0 ? 0 : sum > 255 ? 255 : sum);
        }
    }
}

void pcv_transpose(const unsigned char *src, int width, int height, int bands, unsigned char *dst) {
    enum { B = 32 };
    for (int y0 = 0; y0 < height; y0 += B)
        for (int x0 = 0; x0 < width; x0 += B) {
            const int y1 = y0 + B < height ? y0 + B : height, x1 = x0 + B < width ? x0 + B : width;
            for (int y = y0; y < y1; y++) {
                const unsigned char *f = src + ((size_t)y * width + x0) * bands;
                unsigned char *t = dst + ((size_t)x0 * height + y) * bands;
                if (bands == 3)
                    for (int x = x0; x < x1; x++, f += 3, t += (size_t)3 * height) { t[0] = f[0]; t[1] = f[1]; t[2] = f[2]; }
                else
                    for (int x = x0; x < x1; x++, f += bands, t += (size_t)bands * height) memcpy(t, f, (size_t)bands);
            }
        }
}
