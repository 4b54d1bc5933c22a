/// The tables and function of the PostgreSQL store, by schema version. Migrations run in order, in one
/// transaction, under a transaction-level advisory lock, so many processes starting at once never race.
enum PostgresSchema {
    /// The advisory lock key of schema changes (an arbitrary constant: "jsbs" in ASCII).
    static let lockKey: Int64 = 0x6A73_6273

    /// The channel `NOTIFY` announces commits on; the payload is the app id.
    static let channel = "jsbridge_storage"

    /// `migrations[n]` takes the schema from version `n` to `n + 1`.
    static let migrations: [String] = [
        """
        CREATE TABLE jsbridge_storage_apps (
            app text PRIMARY KEY,
            used_bytes bigint NOT NULL DEFAULT 0,
            seq bigint NOT NULL DEFAULT 0
        );
        CREATE TABLE jsbridge_storage_items (
            app text NOT NULL, grp bytea NOT NULL, key bytea NOT NULL, value bytea NOT NULL,
            PRIMARY KEY (app, grp, key)
        );
        CREATE TABLE jsbridge_storage_changes (
            app text NOT NULL, seq bigint NOT NULL, grp bytea NOT NULL, key bytea, value bytea,
            writer text NOT NULL, request bigint NOT NULL,
            PRIMARY KEY (app, seq)
        );
        CREATE FUNCTION jsbridge_storage_apply(
            p_app text, p_quota bigint, p_writer text, p_request bigint, p_retry boolean,
            p_kinds text, p_groups bytea[], p_keys bytea[], p_values bytea[]
        ) RETURNS text LANGUAGE plpgsql AS $fn$
        DECLARE
            v_used bigint; v_seq bigint; v_start bigint; v_delta bigint := 0; v_old bigint; v_n bigint;
            v_flags text := ''; v_kind text;
        BEGIN
            SELECT used_bytes, seq INTO v_used, v_seq FROM jsbridge_storage_apps WHERE app = p_app FOR UPDATE;
            IF NOT FOUND THEN
                INSERT INTO jsbridge_storage_apps(app) VALUES (p_app) ON CONFLICT DO NOTHING;
                SELECT used_bytes, seq INTO v_used, v_seq FROM jsbridge_storage_apps WHERE app = p_app FOR UPDATE;
            END IF;
            IF p_retry AND EXISTS (SELECT 1 FROM jsbridge_storage_changes
                                   WHERE app = p_app AND writer = p_writer AND request = p_request) THEN
                RETURN v_seq::text || ':applied';
            END IF;
            v_start := v_seq;
            FOR i IN 1 .. length(p_kinds) LOOP
                v_kind := substr(p_kinds, i, 1);
                IF v_kind = 's' THEN
                    SELECT octet_length(key) + octet_length(value) INTO v_old FROM jsbridge_storage_items
                        WHERE app = p_app AND grp = p_groups[i] AND key = p_keys[i];
                    v_delta := v_delta - coalesce(v_old, 0) + octet_length(p_keys[i]) + octet_length(p_values[i]);
                    INSERT INTO jsbridge_storage_items(app, grp, key, value)
                        VALUES (p_app, p_groups[i], p_keys[i], p_values[i])
                        ON CONFLICT (app, grp, key) DO UPDATE SET value = excluded.value;
                    v_seq := v_seq + 1;
                    INSERT INTO jsbridge_storage_changes VALUES
                        (p_app, v_seq, p_groups[i], p_keys[i], p_values[i], p_writer, p_request);
                    v_flags := v_flags || '1';
                ELSIF v_kind = 'r' THEN
                    DELETE FROM jsbridge_storage_items WHERE app = p_app AND grp = p_groups[i] AND key = p_keys[i]
                        RETURNING octet_length(key) + octet_length(value) INTO v_old;
                    IF FOUND THEN
                        v_delta := v_delta - v_old;
                        v_seq := v_seq + 1;
                        INSERT INTO jsbridge_storage_changes VALUES
                            (p_app, v_seq, p_groups[i], p_keys[i], NULL, p_writer, p_request);
                        v_flags := v_flags || '1';
                    ELSE
                        v_flags := v_flags || '0';
                    END IF;
                ELSE
                    SELECT coalesce(sum(octet_length(key) + octet_length(value)), 0), count(*) INTO v_old, v_n
                        FROM jsbridge_storage_items WHERE app = p_app AND grp = p_groups[i];
                    IF v_n > 0 THEN
                        DELETE FROM jsbridge_storage_items WHERE app = p_app AND grp = p_groups[i];
                        v_delta := v_delta - v_old;
                        v_seq := v_seq + 1;
                        INSERT INTO jsbridge_storage_changes VALUES
                            (p_app, v_seq, p_groups[i], NULL, NULL, p_writer, p_request);
                        v_flags := v_flags || '1';
                    ELSE
                        v_flags := v_flags || '0';
                    END IF;
                END IF;
            END LOOP;
            IF v_delta > 0 AND p_quota IS NOT NULL AND v_used + v_delta > p_quota THEN
                RAISE EXCEPTION 'storage quota exceeded' USING ERRCODE = 'JB001',
                    DETAIL = v_used::text || ' ' || v_delta::text;
            END IF;
            IF v_seq > v_start THEN
                UPDATE jsbridge_storage_apps SET used_bytes = v_used + v_delta, seq = v_seq WHERE app = p_app;
                -- The log keeps the last 100000 changes per app: what a listener that was away reads back.
                IF v_seq / 1000 > v_start / 1000 THEN
                    DELETE FROM jsbridge_storage_changes WHERE app = p_app AND seq <= v_seq - 100000;
                END IF;
                PERFORM pg_notify('jsbridge_storage', p_app);
            END IF;
            RETURN v_seq::text || ':' || v_flags;
        END
        $fn$;
        """
    ]

    /// The statements that bring a database to the current version (run by the store when it opens).
    static func migrate(_ connection: PGConnection) throws(PGFailure) {
        try connection.execute("BEGIN")
        do throws(PGFailure) {
            try connection.query("SELECT pg_advisory_xact_lock($1)", [.int8(lockKey)])
            try connection.execute(
                "CREATE TABLE IF NOT EXISTS jsbridge_storage_schema (version integer NOT NULL)")
            let rows = try connection.query("SELECT max(version)::bigint FROM jsbridge_storage_schema")
            let version = Int(rows.count > 0 ? rows.int64(0, 0) ?? 0 : 0)
            if version > migrations.count {
                throw PGFailure(
                    sqlState: nil,
                    message:
                        "the database has storage schema version \(version), newer than this jsbridge knows (\(migrations.count))",
                    detail: nil, connectionLost: false)
            }
            for index in version..<migrations.count {
                try connection.execute(migrations[index])
                try connection.query(
                    "INSERT INTO jsbridge_storage_schema(version) VALUES ($1::bigint::integer)",
                    [.int8(Int64(index + 1))])
            }
            try connection.execute("COMMIT")
        } catch {
            if !connection.isBroken { try? connection.execute("ROLLBACK") }
            throw error
        }
    }
}
