#include "CJpegShim.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <jpeglib.h>
#include <jpegint.h>
#include <jerror.h>

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    pcj_info *info;
} pcj_error;

typedef struct {
    inverse_DCT_method_ptr original[MAX_COMPONENTS];
    pcj_block_fn fn;
    void *ctx;
    int stride[3];
    int countdown[3];
    JDIMENSION row;
} pcj_hook;

static void pcj_error_exit(j_common_ptr c) {
    pcj_error *e = (pcj_error *)c->err;
    (*c->err->format_message)(c, e->info->message);
    longjmp(e->jump, 1);
}

static void pcj_emit(j_common_ptr c, int level) {
    if (level >= 0) return; /* trace messages */
    pcj_error *e = (pcj_error *)c->err;
    if (c->err->msg_code == JWRN_JPEG_EOF) e->info->truncated = 1;
    if (e->info->warnings++ == 0) (*c->err->format_message)(c, e->info->message);
}

/* Runs for every block of the photo, so it only counts down: no division unless the
 * block is one to hand over. Each iMCU row starts its count at a different offset,
 * so the blocks handed over lie on diagonals, not in fixed columns. */
static void pcj_idct(j_decompress_ptr c, jpeg_component_info *comp, JCOEFPTR coef, JSAMPARRAY out, JDIMENSION col) {
    pcj_hook *h = (pcj_hook *)c->client_data;
    int ci = comp->component_index;
    if (c->output_iMCU_row != h->row) {
        h->row = c->output_iMCU_row;
        for (int i = 0; i < 3; i++) h->countdown[i] = 1 + (int)(h->row % (JDIMENSION)h->stride[i]);
    }
    if (ci < 3 && --h->countdown[ci] == 0) {
        h->countdown[ci] = h->stride[ci];
        h->fn(h->ctx, ci, (int)(col / (JDIMENSION)comp->DCT_scaled_size), (int)c->output_iMCU_row,
              coef, comp->quant_table ? comp->quant_table->quantval : NULL);
    }
    h->original[ci](c, comp, coef, out, col);
}

unsigned char *pcj_decode(const char *path, int scale, pcj_block_fn fn, void *ctx, int luma_blocks, int chroma_blocks, pcj_info *info) {
    memset(info, 0, sizeof *info);
    FILE *fp = fopen(path, "rb");
    if (!fp) { snprintf(info->message, sizeof info->message, "cannot open: %s", strerror(errno)); return NULL; }
    struct jpeg_decompress_struct c;
    pcj_error err;
    pcj_hook hook = { .fn = fn, .ctx = ctx, .row = (JDIMENSION)-1 };
    unsigned char *volatile pixels = NULL;
    c.err = jpeg_std_error(&err.pub);
    err.pub.error_exit = pcj_error_exit;
    err.pub.emit_message = pcj_emit;
    err.info = info;
    if (setjmp(err.jump)) {
        jpeg_destroy_decompress(&c);
        fclose(fp);
        free(pixels);
        return NULL;
    }
    jpeg_create_decompress(&c);
    jpeg_stdio_src(&c, fp);
    jpeg_read_header(&c, TRUE);
    info->width = (int)c.image_width;
    info->height = (int)c.image_height;
    info->components = c.num_components;
    if (c.data_precision != 8 || !(c.jpeg_color_space == JCS_YCbCr || c.jpeg_color_space == JCS_GRAYSCALE)) {
        info->unsupported = 1;
        snprintf(info->message, sizeof info->message, "colour space %d, %d-bit", (int)c.jpeg_color_space, c.data_precision);
        jpeg_destroy_decompress(&c);
        fclose(fp);
        return NULL;
    }
    c.out_color_space = c.jpeg_color_space == JCS_GRAYSCALE ? JCS_GRAYSCALE : JCS_RGB;
    c.scale_num = 1;
    c.scale_denom = (unsigned)(scale == 2 || scale == 4 || scale == 8 ? scale : 1);
    c.client_data = &hook;
    jpeg_start_decompress(&c);
    /* The IDCT methods are chosen by start_decompress; wrap them now. The strides
     * hand over about the number of blocks asked for, whatever the photo's size. */
    if (fn) {
        for (int i = 0; i < 3; i++) {
            long total = i < c.num_components ? (long)c.comp_info[i].width_in_blocks * (long)c.comp_info[i].height_in_blocks : 0;
            long want = i == 0 ? luma_blocks : chroma_blocks;
            hook.stride[i] = want > 0 && total > want ? (int)(total / want) : 1;
        }
        for (int i = 0; i < c.num_components && i < MAX_COMPONENTS; i++) {
            hook.original[i] = c.idct->inverse_DCT[i];
            c.idct->inverse_DCT[i] = pcj_idct;
        }
    }
    info->out_width = (int)c.output_width;
    info->out_height = (int)c.output_height;
    info->out_components = c.output_components;
    info->imcu_rows = (int)c.total_iMCU_rows;
    for (int i = 0; i < c.num_components && i < 3; i++) {
        info->blocks_wide[i] = (int)c.comp_info[i].width_in_blocks;
        info->blocks_high[i] = (int)c.comp_info[i].height_in_blocks;
        info->h_samp[i] = c.comp_info[i].h_samp_factor;
        info->v_samp[i] = c.comp_info[i].v_samp_factor;
    }
    size_t stride = (size_t)c.output_width * (size_t)c.output_components;
    pixels = malloc(stride * c.output_height);
    if (!pixels) { snprintf(info->message, sizeof info->message, "out of memory"); jpeg_destroy_decompress(&c); fclose(fp); return NULL; }
    while (c.output_scanline < c.output_height) {
        JSAMPROW row = pixels + stride * c.output_scanline;
        jpeg_read_scanlines(&c, &row, 1);
    }
    jpeg_finish_decompress(&c);
    jpeg_destroy_decompress(&c);
    fclose(fp);
    return pixels;
}

void pcj_free(void *p) { free(p); }
