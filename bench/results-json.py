#!/usr/bin/env python3
"""bench/results-json.py SECTION OUTPUT: writes one device's ladder table of doc/results.md
(the section "## SECTION", its first table) as a saved run in the schema of
clmm-tutor --bench --format json, for --compare. Only what the table holds is written: each
row's lesson, title, size, status and median GFLOPS, as rounded there; "params" is left out
(the table gives none: any parameters match) and "source" says where the figures come from.
   bench/results-json.py 'NVIDIA H100' doc/h100-ladder.json"""
import json, re, sys

section, output = sys.argv[1], sys.argv[2]
here = __file__.rsplit("/bench/", 1)[0] if "/bench/" in __file__ else "."
lines = open(here + "/doc/results.md", encoding="utf-8").read().split("\n")
start = lines.index("## " + section)
facts, table = {}, []
for line in lines[start + 1:]:
    if line.startswith("## "):
        break
    m = re.match(r"- (Date|Device|Driver|Command): (.*)", line)
    if m and m.group(1) not in facts:
        facts[m.group(1)] = m.group(2)
    if line.startswith("| ") and not table or (table and line.startswith("|")):
        table.append(line)
    elif table:
        break
head = [c.strip() for c in table[0].strip("|").split("|")]
sizes = [int(s) for s in head[2:]]
device = re.match(r"(.*) \((.*?), (GPU|CPU), (\d+) compute units at (\d+) MHz\)", facts["Device"])
results = []
for line in table[2:]:
    cells = [c.strip() for c in line.strip("|").split("|")]
    lesson = -1 if cells[0] == "ref" else int(cells[0])
    for size, cell in zip(sizes, cells[2:]):
        row = {"lesson": lesson, "device_index": 0, "title": cells[1], "m": size, "n": size, "k": size}
        if cell == "refused":
            row["status"] = "refused"
        else:
            row["status"] = "ok"
            row["gflops_median"] = float(cell.split(" ")[0])
        results.append(row)
run = {
    "device": {"index": 0, "name": device.group(1), "platform": device.group(2), "type": device.group(3),
               "compute_units": int(device.group(4)), "clock_mhz": int(device.group(5)),
               "driver": facts["Driver"], "ceilings": None},
    "source": "doc/results.md, section %s, measured %s: %s" % (section, facts["Date"], re.match(r"`([^`]*)`", facts["Command"]).group(1)),
    "results": results,
}
with open(output, "w", encoding="utf-8") as f:
    f.write("{\n  \"device\": %s,\n  \"source\": %s,\n  \"results\": [\n    " %
            (json.dumps(run["device"], ensure_ascii=False), json.dumps(run["source"], ensure_ascii=False)))
    f.write(",\n    ".join(json.dumps(r, ensure_ascii=False) for r in results))
    f.write("\n  ]\n}\n")
