/* A JPEG decode at 1/scale through libjpeg(-turbo) that also hands each block's
 * DCT coefficients to the caller before its inverse DCT: the native-resolution
 * detail of a photo for the price of the scaled decode it needs anyway.
 * Only the plumbing lives here (setjmp error handling, the IDCT hook). */
#ifndef CJPEGSHIM_H
#define CJPEGSHIM_H

#include <stddef.h>

/* Called once per 8×8 block of components 0–2, in decoding order. coef holds the
 * 64 quantized coefficients and quant the 64 quantizer steps, both in natural
 * (row-major) order; block_col is the block's column in its component, imcu_row
 * the row of iMCUs (one or two block rows) being decoded. */
typedef void (*pcj_block_fn)(void *ctx, int component, int block_col, int imcu_row,
                             const short *coef, const unsigned short *quant);

typedef struct pcj_info {
    int width, height;            /* stored size, full resolution */
    int out_width, out_height;    /* decoded size (after 1/scale) */
    int out_components;           /* 1 (grey) or 3 (RGB) */
    int components;               /* in the file */
    int imcu_rows;                /* total iMCU rows */
    int blocks_wide[3], blocks_high[3];
    int h_samp[3], v_samp[3];
    int warnings;                 /* corrupt-data warnings (the image decoded anyway) */
    int truncated;                /* the data ended early (libjpeg filled the rest) */
    int unsupported;              /* not an 8-bit YCbCr or greyscale JPEG: use another decoder */
    char message[200];            /* the first warning, or the error */
} pcj_info;

/* Decodes the file; returns out_width*out_height*out_components bytes the caller
 * frees with pcj_free, or NULL with info->message set (info->unsupported when the
 * file is valid but not a kind this decoder handles). fn may be NULL. */
/* Only about luma_blocks blocks of component 0 and chroma_blocks of each of 1–2
 * (every stride-th, on diagonals; all of them when the photo has fewer; 0 means all)
 * are handed to fn: a call per block costs more than the statistics need. */
unsigned char *pcj_decode(const char *path, int scale, pcj_block_fn fn, void *ctx, int luma_blocks, int chroma_blocks, pcj_info *info);
void pcj_free(void *p);

#endif
