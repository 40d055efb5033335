import Database from "better-sqlite3";

/** A row of the objects table: one stored object, serialised. */
export interface StoredRow {
  resource: string;
  namespace: string;
  name: string;
  rv: number;
  data: string;
}

/** One committed change, also kept as watch history. */
export interface ChangeRow {
  rv: number;
  resource: string;
  namespace: string;
  name: string;
  type: "ADDED" | "MODIFIED" | "DELETED";
  data: string;
}

/**
 * The durable half of the store: objects and a bounded history of changes in SQLite (WAL).
 * Every write is one transaction that commits before the caller acknowledges it; WAL with
 * synchronous=NORMAL survives a crash or kill -9 of the process (the OS holds the WAL pages),
 * though not a power cut, which a development cluster may lose.
 */
export class SqliteLog {
  readonly #db: Database.Database;
  readonly #upsert: Database.Statement;
  readonly #remove: Database.Statement;
  readonly #appendChange: Database.Statement;
  readonly #setRevision: Database.Statement;
  readonly #trimChanges: Database.Statement;
  readonly #commitChanges: (changes: ChangeRow[], revision: number) => void;

  /** `path` ":memory:" keeps everything in memory (fast tests). */
  constructor(path: string) {
    this.#db = new Database(path);
    this.#db.pragma("journal_mode = WAL");
    this.#db.pragma("synchronous = NORMAL");
    this.#db.exec(`
      CREATE TABLE IF NOT EXISTS objects (
        resource TEXT NOT NULL, namespace TEXT NOT NULL, name TEXT NOT NULL,
        rv INTEGER NOT NULL, data TEXT NOT NULL,
        PRIMARY KEY (resource, namespace, name)
      ) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS changes (
        rv INTEGER PRIMARY KEY, resource TEXT NOT NULL, namespace TEXT NOT NULL, name TEXT NOT NULL,
        type TEXT NOT NULL, data TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS revision (id INTEGER PRIMARY KEY CHECK (id = 1), rv INTEGER NOT NULL);
      INSERT OR IGNORE INTO revision (id, rv) VALUES (1, 1);
    `);
    this.#upsert = this.#db.prepare(
      "INSERT INTO objects (resource, namespace, name, rv, data) VALUES (?, ?, ?, ?, ?) " +
        "ON CONFLICT (resource, namespace, name) DO UPDATE SET rv = excluded.rv, data = excluded.data",
    );
    this.#remove = this.#db.prepare("DELETE FROM objects WHERE resource = ? AND namespace = ? AND name = ?");
    this.#appendChange = this.#db.prepare(
      "INSERT INTO changes (rv, resource, namespace, name, type, data) VALUES (?, ?, ?, ?, ?, ?)",
    );
    this.#setRevision = this.#db.prepare("UPDATE revision SET rv = ? WHERE id = 1");
    this.#trimChanges = this.#db.prepare("DELETE FROM changes WHERE rv < ?");
    this.#commitChanges = this.#db.transaction((changes: ChangeRow[], revision: number) => {
      for (const change of changes) {
        if (change.type === "DELETED") this.#remove.run(change.resource, change.namespace, change.name);
        else this.#upsert.run(change.resource, change.namespace, change.name, change.rv, change.data);
        this.#appendChange.run(
          change.rv,
          change.resource,
          change.namespace,
          change.name,
          change.type,
          change.data,
        );
      }
      this.#setRevision.run(revision);
    });
  }

  /** The highest resourceVersion ever handed out. */
  revision(): number {
    const row = this.#db.prepare("SELECT rv FROM revision WHERE id = 1").get() as { rv: number };
    return row.rv;
  }

  loadObjects(): StoredRow[] {
    return this.#db.prepare("SELECT resource, namespace, name, rv, data FROM objects").all() as StoredRow[];
  }

  /** The most recent `limit` changes, oldest first. */
  loadRecentChanges(limit: number): ChangeRow[] {
    const rows = this.#db
      .prepare("SELECT rv, resource, namespace, name, type, data FROM changes ORDER BY rv DESC LIMIT ?")
      .all(limit) as ChangeRow[];
    return rows.reverse();
  }

  /** Writes the changes and the new revision in one transaction. */
  commit(changes: ChangeRow[], revision: number): void {
    this.#commitChanges(changes, revision);
  }

  /** Drops history older than `rv`. */
  trimHistoryBefore(rv: number): void {
    this.#trimChanges.run(rv);
  }

  close(): void {
    this.#db.close();
  }
}
