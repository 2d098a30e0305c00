# tests/fragments/swap-a1-a2.awk: exercise 16's starting kernel with its gap filled by the
# fragments of lesson 20's table, except that a1 and a2 trade places: a1 = A(g, t+4),
# a2 = A(g+8, t). A mapping broken on purpose, whose error map must be the same wherever
# the kernel runs (on tensor cores, or emulated). Used by tests/exercises.sh and by hand
# on a GPU: clmm-tutor --reset 16 --workspace ws && awk -f tests/fragments/swap-a1-a2.awk ws/16-fragments.cl > broken.cl
/TODO: this work-item's fragments/ { skip = 1 }
skip && /b\[j\]\[c\] = 0\.0f;/ {
    skip = 0
    print "    /* (the gap filled, a1 and a2 swapped on purpose) */"
    print "    for (int i = 0; i < FM; i++) {"
    print "        const int r = wm0 + 16 * i + g;"
    print "        a[i][0] = at[r * SA + k8 + t];"
    print "        a[i][1] = at[r * SA + k8 + t + 4];"
    print "        a[i][2] = at[(r + 8) * SA + k8 + t];"
    print "        a[i][3] = at[(r + 8) * SA + k8 + t + 4];"
    print "    }"
    print "    for (int j = 0; j < FN; j++) {"
    print "        b[j][0] = bt[(k8 + t) * SB + wn0 + 8 * j + g];"
    print "        b[j][1] = bt[(k8 + t + 4) * SB + wn0 + 8 * j + g];"
    print "    }"
    next
}
skip { next }
{ print }
