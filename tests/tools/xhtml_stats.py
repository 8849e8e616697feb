#!/usr/bin/python3
"""xhtml_stats.py FILE — parses FILE with xml.etree (so it must be
well-formed XML: every element closed, only XML escapes) and prints one
"name=value" per line about it: svg charts, history figures, break-even
markers, current-use markers, scripts, external references (src or href
not starting with '#', stylesheet links, url() to anything but '#'), and
every job section's title, every h2's id ("h2id=fleet") and the text of
every table cell, b or span with an id ("cell.fleet-capex=4800.00",
"cell.headline-monthly=2270.06 EUR a month"). Exits 1 when the file does not parse."""
import re
import sys
import xml.etree.ElementTree as ET

XH = "{http://www.w3.org/1999/xhtml}"
SVG = "{http://www.w3.org/2000/svg}"


def main():
    try:
        root = ET.parse(sys.argv[1]).getroot()
    except (OSError, ET.ParseError) as e:
        print("xhtml_stats: %s" % e, file=sys.stderr)
        return 1
    stats = {"root": root.tag, "svg": 0, "history": 0, "breakeven": 0, "use": 0,
             "script": 0, "external": 0, "img": 0}
    titles = []
    ids = []
    cells = []
    for el in root.iter():
        cls = el.get("class", "")
        if el.tag == SVG + "svg":
            stats["svg"] += 1
        if el.tag in (XH + "script", SVG + "script"):
            stats["script"] += 1
        if el.tag in (XH + "img", XH + "link", XH + "iframe", XH + "object", SVG + "image"):
            stats["img"] += 1
        if cls == "history":
            stats["history"] += 1
        if cls == "breakeven":
            stats["breakeven"] += 1
        if cls == "use":
            stats["use"] += 1
        for attr in ("src", "href", "{http://www.w3.org/1999/xlink}href"):
            v = el.get(attr)
            if v is not None and not v.startswith("#"):
                stats["external"] += 1
        for v in list(el.attrib.values()) + [el.text or ""]:
            for u in re.findall(r"url\(([^)]*)\)", v):
                if not u.strip("'\" ").startswith("#"):
                    stats["external"] += 1
        if el.tag == XH + "h2" and el.text:
            titles.append(el.text)
        if el.tag == XH + "h2" and el.get("id"):
            ids.append(el.get("id"))
        if el.tag in (XH + "td", XH + "b", XH + "span") and el.get("id"):
            cells.append((el.get("id"), "".join(el.itertext())))
    for k, v in stats.items():
        print("%s=%s" % (k, v))
    for t in titles:
        print("h2=%s" % t)
    for i in ids:
        print("h2id=%s" % i)
    for k, v in cells:
        print("cell.%s=%s" % (k, v))
    return 0


if __name__ == "__main__":
    sys.exit(main())
