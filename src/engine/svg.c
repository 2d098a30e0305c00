/* svg.c: a standalone SVG document, its text always escaped and valid. */
#include "svg.h"

#include <string.h>

#include "str.h"

void svg_begin(FILE *out, int width, int height, const char *title)
{
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                 "font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">\n<title>",
            width, height, width, height);
    svg_escape(out, title);
    fputs("</title>\n", out);
    svg_rect(out, 0, 0, width, height, "#ffffff", NULL);
}

void svg_end(FILE *out)
{
    fputs("</svg>\n", out);
}

/* Whether XML 1.0 allows code as a character (tab, newline and carriage return aside, which
   text here does not need: they become spaces), and this document wants it: no C0 or C1
   control, nor U+FFFE, U+FFFF. */
static int allowed(unsigned long code)
{
    return code >= 0x20 && code != 0x7f && !(code >= 0x80 && code < 0xa0) && code != 0xfffe && code != 0xffff;
}

void svg_escape(FILE *out, const char *text)
{
    for (const char *p = text; *p;) {
        unsigned long code;
        size_t n = str_utf8_char(p, &code);
        if (n == 0) {
            fputs("\xef\xbf\xbd", out);     /* a byte that is not UTF-8: U+FFFD */
            p++;
            continue;
        }
        switch (code) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&apos;", out); break;
        case '\t': case '\n': case '\r': fputc(' ', out); break;
        default:
            if (allowed(code))
                fwrite(p, 1, n, out);
            else
                fputs("\xef\xbf\xbd", out);
        }
        p += n;
    }
}

void svg_cut(char *buf, size_t len, const char *text, size_t chars)
{
    size_t n;

    if (len == 0)
        return;
    if (str_columns(text, strlen(text)) <= chars) {
        str_copy(buf, len, text);
        return;
    }
    n = str_prefix(text, chars > 0 ? chars - 1 : 0);
    snprintf(buf, len, "%.*s\u2026", (int)n, text);
}

static void paint(FILE *out, const char *fill, const char *stroke)
{
    fprintf(out, " fill=\"%s\"", fill ? fill : "none");
    if (stroke)
        fprintf(out, " stroke=\"%s\"", stroke);
}

void svg_rect(FILE *out, double x, double y, double w, double h, const char *fill, const char *stroke)
{
    fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"", x, y, w < 0 ? 0 : w, h < 0 ? 0 : h);
    paint(out, fill, stroke);
    fputs("/>\n", out);
}

static void stroke_style(FILE *out, const char *stroke, double width, const char *dash)
{
    fprintf(out, " fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\"", stroke, width);
    if (dash)
        fprintf(out, " stroke-dasharray=\"%s\"", dash);
}

void svg_line(FILE *out, double x1, double y1, double x2, double y2, const char *stroke, double width,
              const char *dash)
{
    fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"", x1, y1, x2, y2);
    stroke_style(out, stroke, width, dash);
    fputs("/>\n", out);
}

void svg_polyline(FILE *out, const double *x, const double *y, size_t n, const char *stroke, double width,
                  const char *dash)
{
    fputs("<polyline points=\"", out);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%s%.1f,%.1f", i ? " " : "", x[i], y[i]);
    fputc('"', out);
    stroke_style(out, stroke, width, dash);
    fputs(" stroke-linejoin=\"round\"/>\n", out);
}

void svg_marker(FILE *out, double x, double y, double r, int shape, const char *fill)
{
    switch (shape % 4) {
    case 0:
        fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"", x, y, r);
        break;
    case 1:
        fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"", x - r, y - r, 2 * r, 2 * r);
        break;
    case 2:
        fprintf(out, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"", x, y - 1.2 * r, x + 1.1 * r, y + 0.8 * r,
                x - 1.1 * r, y + 0.8 * r);
        break;
    default:
        fprintf(out, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\"", x, y - 1.3 * r, x + 1.3 * r, y,
                x, y + 1.3 * r, x - 1.3 * r, y);
        break;
    }
    paint(out, fill, NULL);
    fputs("/>\n", out);
}

void svg_text(FILE *out, double x, double y, double px, enum svg_anchor anchor, int bold, const char *fill,
              double rotate, const char *text)
{
    static const char *const anchors[] = { "start", "middle", "end" };

    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.0f\" text-anchor=\"%s\" fill=\"%s\"", x, y, px,
            anchors[anchor], fill);
    if (bold)
        fputs(" font-weight=\"bold\"", out);
    if (rotate != 0)
        fprintf(out, " transform=\"rotate(%.0f %.1f %.1f)\"", rotate, x, y);
    fputc('>', out);
    svg_escape(out, text);
    fputs("</text>\n", out);
}
