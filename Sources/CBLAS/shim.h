#include <cblas.h>
/* OpenBLAS' own threading control; declared in openblas_config.h / cblas.h. */
void openblas_set_num_threads(int num_threads);
