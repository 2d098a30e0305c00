/* svg.h: writing a standalone SVG document: its frame, and rectangles, lines, polylines,
   markers and text in it. Every piece of text is XML-escaped and made valid: a byte that is
   not part of a UTF-8 character, and a character XML 1.0 does not allow (control
   characters), become U+FFFD; so a title from a lesson file cannot break the document.
   Engine code: no curses. */
#ifndef CLMM_SVG_H
#define CLMM_SVG_H

#include <stdio.h>

/* The document: an XML declaration, <svg> with xmlns, width, height and a viewBox of the
   same size, a <title> (escaped) and a white background. */
void svg_begin(FILE *out, int width, int height, const char *title);
void svg_end(FILE *out);

/* text, escaped for XML character data and attribute values alike (& < > " '). */
void svg_escape(FILE *out, const char *text);

/* text cut to at most chars characters into buf (len bytes, NUL-terminated), its last
   character an ellipsis when it was cut. */
void svg_cut(char *buf, size_t len, const char *text, size_t chars);

/* Shapes; stroke or fill NULL: none. dash NULL: a solid line. */
void svg_rect(FILE *out, double x, double y, double w, double h, const char *fill, const char *stroke);
void svg_line(FILE *out, double x1, double y1, double x2, double y2, const char *stroke, double width,
              const char *dash);
/* n points (x[i], y[i]) joined by a line. */
void svg_polyline(FILE *out, const double *x, const double *y, size_t n, const char *stroke, double width,
                  const char *dash);
/* A marker centred on (x, y) of radius r: shape 0 a disc, 1 a square, 2 a triangle, 3 a
   diamond (shapes beyond 3 wrap). */
void svg_marker(FILE *out, double x, double y, double r, int shape, const char *fill);

/* Text at (x, y) (its baseline), of size px, anchor "start", "middle" or "end", bold or
   not; rotate: degrees around (x, y), 0 for none. */
enum svg_anchor { SVG_START, SVG_MIDDLE, SVG_END };
void svg_text(FILE *out, double x, double y, double px, enum svg_anchor anchor, int bold, const char *fill,
              double rotate, const char *text);

#endif
