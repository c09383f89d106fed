/* zlib, for inflating the deflated members of wheels (zip archives). */
#include <zlib.h>
