-- Value column types for the PostgreSQL store, measured inside the server (Benchmarks/README.md has the
-- figures): 100,000 rows of ~50-byte JSON text as text, jsonb and bytea; insert time, read-back time, size.
--   psql -X -h 127.0.0.1 -p PORT -U USER -d DB -f Benchmarks/storage/value-types.sql   (on a scratch database)
\timing on
CREATE TABLE t_text (k text PRIMARY KEY, v text);
CREATE TABLE t_jsonb (k text PRIMARY KEY, v jsonb);
CREATE TABLE t_bytea (k bytea PRIMARY KEY, v bytea);
\echo insert 100000 text
INSERT INTO t_text SELECT 'key' || i, '{"i":' || i || ',"name":"value ' || i || '","tags":["a","b"]}' FROM generate_series(1,100000) i;
\echo insert 100000 jsonb
INSERT INTO t_jsonb SELECT 'key' || i, ('{"i":' || i || ',"name":"value ' || i || '","tags":["a","b"]}')::jsonb FROM generate_series(1,100000) i;
\echo insert 100000 bytea
INSERT INTO t_bytea SELECT convert_to('key' || i, 'UTF8'), convert_to('{"i":' || i || ',"name":"value ' || i || '","tags":["a","b"]}', 'UTF8') FROM generate_series(1,100000) i;
\echo read text
SELECT sum(length(v)) FROM t_text;
\echo read jsonb as text
SELECT sum(length(v::text)) FROM t_jsonb;
\echo read bytea
SELECT sum(length(v)) FROM t_bytea;
SELECT pg_size_pretty(pg_total_relation_size('t_text')) text_size, pg_size_pretty(pg_total_relation_size('t_jsonb')) jsonb_size, pg_size_pretty(pg_total_relation_size('t_bytea')) bytea_size;
SELECT '{"b":1,"a":2, "a":3}'::jsonb::text AS jsonb_rewrites;
