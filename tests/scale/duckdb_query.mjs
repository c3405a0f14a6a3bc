// Reads decode --partition output with DuckDB as an engine would (Hive partitions, no
// schema given for the message itself) and prints the query's rows as JSON.
// usage: node duckdb_query.mjs DIR SQL   (SQL reads the view "v2x")
import { DuckDBInstance } from '@duckdb/node-api';

const [dir, sql] = process.argv.slice(2);
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
await con.run(`CREATE VIEW v2x AS SELECT * FROM read_ndjson('${dir}/*/*/*/*.ndjson.gz',
  columns = {file: 'VARCHAR', frame: 'UBIGINT', time: 'DOUBLE', j2735: 'JSON'},
  hive_partitioning = true)`);
const reader = await con.runAndReadAll(sql);
console.log(JSON.stringify(reader.getRowObjectsJson()));
