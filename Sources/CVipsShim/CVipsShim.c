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
