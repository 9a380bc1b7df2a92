CREATE TABLE `feedback` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`kind` text NOT NULL,
	`data_key_id` text NOT NULL,
	`message_sealed` text NOT NULL,
	`message_length` integer NOT NULL,
	`related_asset_id` text,
	`related_job_id` text,
	`related_verification_id` text,
	`actor_kind` text NOT NULL,
	`actor_id` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `feedback_tenant_created_idx` ON `feedback` (`tenant_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `derived_index_runs` (
	`name` text PRIMARY KEY NOT NULL,
	`last_started_at` integer,
	`last_succeeded_at` integer,
	`last_failed_at` integer,
	`bindings_cursor` text DEFAULT '' NOT NULL,
	`bands_cursor` text DEFAULT '' NOT NULL,
	`last_scanned` integer DEFAULT 0 NOT NULL,
	`last_bindings_removed` integer DEFAULT 0 NOT NULL,
	`last_bands_removed` integer DEFAULT 0 NOT NULL,
	`total_removed` integer DEFAULT 0 NOT NULL,
	`passes_completed` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `overview_daily` (
	`tenant_id` text NOT NULL,
	`figure` text NOT NULL,
	`day_start` integer NOT NULL,
	`key` text NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`tenant_id`, `figure`, `day_start`, `key`)
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_tenant_created_idx` ON `webhook_deliveries` (`tenant_id`,`created_at`);--> statement-breakpoint
-- The overview's counters start from the rows that exist, then triggers keep them exact.
INSERT INTO overview_daily (tenant_id, figure, day_start, key, n)
  SELECT tenant_id, 'jobs', (created_at / 86400000) * 86400000, state, COUNT(*) FROM jobs GROUP BY 1, 3, 4
  UNION ALL SELECT tenant_id, 'verifications', (created_at / 86400000) * 86400000, overall, COUNT(*) FROM verifications GROUP BY 1, 3, 4
  UNION ALL SELECT tenant_id, 'assets', (created_at / 86400000) * 86400000, kind, COUNT(*) FROM assets GROUP BY 1, 3, 4
  UNION ALL SELECT tenant_id, 'webhook_deliveries', (created_at / 86400000) * 86400000, status, COUNT(*) FROM webhook_deliveries GROUP BY 1, 3, 4;
--> statement-breakpoint
CREATE TRIGGER overview_jobs_insert AFTER INSERT ON jobs
BEGIN
  INSERT INTO overview_daily (tenant_id, figure, day_start, key, n) VALUES (NEW.tenant_id, 'jobs', (NEW.created_at / 86400000) * 86400000, NEW.state, 1)
    ON CONFLICT (tenant_id, figure, day_start, key) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER overview_jobs_update AFTER UPDATE OF state, tenant_id, created_at ON jobs
  WHEN OLD.state IS NOT NEW.state OR OLD.tenant_id IS NOT NEW.tenant_id OR OLD.created_at IS NOT NEW.created_at
BEGIN
  UPDATE overview_daily SET n = n - 1 WHERE tenant_id = OLD.tenant_id AND figure = 'jobs' AND day_start = (OLD.created_at / 86400000) * 86400000 AND key = OLD.state;
  INSERT INTO overview_daily (tenant_id, figure, day_start, key, n) VALUES (NEW.tenant_id, 'jobs', (NEW.created_at / 86400000) * 86400000, NEW.state, 1)
    ON CONFLICT (tenant_id, figure, day_start, key) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER overview_jobs_delete AFTER DELETE ON jobs
BEGIN
  UPDATE overview_daily SET n = n - 1 WHERE tenant_id = OLD.tenant_id AND figure = 'jobs' AND day_start = (OLD.created_at / 86400000) * 86400000 AND key = OLD.state;
END;
--> statement-breakpoint
CREATE TRIGGER overview_verifications_insert AFTER INSERT ON verifications
BEGIN
  INSERT INTO overview_daily (tenant_id, figure, day_start, key, n) VALUES (NEW.tenant_id, 'verifications', (NEW.created_at / 86400000) * 86400000, NEW.overall, 1)
    ON CONFLICT (tenant_id, figure, day_start, key) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER overview_verifications_update AFTER UPDATE OF overall, tenant_id, created_at ON verifications
  WHEN OLD.overall IS NOT NEW.overall OR OLD.tenant_id IS NOT NEW.tenant_id OR OLD.created_at IS NOT NEW.created_at
BEGIN
  UPDATE overview_daily SET n = n - 1 WHERE tenant_id = OLD.tenant_id AND figure = 'verifications' AND day_start = (OLD.created_at / 86400000) * 86400000 AND key = OLD.overall;
  INSERT INTO overview_daily (tenant_id, figure, day_start, key, n) VALUES (NEW.tenant_id, 'verifications', (NEW.created_at / 86400000) * 86400000, NEW.overall, 1)
    ON CONFLICT (tenant_id, figure, day_start, key) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER overview_verifications_delete AFTER DELETE ON verifications
BEGIN
  UPDATE overview_daily SET n = n - 1 WHERE tenant_id = OLD.tenant_id AND figure = 'verifications' AND day_start = (OLD.created_at / 86400000) * 86400000 AND key = OLD.overall;
END;
--> statement-breakpoint
CREATE TRIGGER overview_assets_insert AFTER INSERT ON assets
BEGIN
  INSERT INTO overview_daily (tenant_id, figure, day_start, key, n) VALUES (NEW.tenant_id, 'assets', (NEW.created_at / 86400000) * 86400000, NEW.kind, 1)
    ON CONFLICT (tenant_id, figure, day_start, key) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER overview_assets_update AFTER UPDATE OF kind, tenant_id, created_at ON assets
  WHEN OLD.kind IS NOT NEW.kind OR OLD.tenant_id IS NOT NEW.tenant_id OR OLD.created_at IS NOT NEW.created_at
BEGIN
  UPDATE overview_daily SET n = n - 1 WHERE tenant_id = OLD.tenant_id AND figure = 'assets' AND day_start = (OLD.created_at / 86400000) * 86400000 AND key = OLD.kind;
  INSERT INTO overview_daily (tenant_id, figure, day_start, key, n) VALUES (NEW.tenant_id, 'assets', (NEW.created_at / 86400000) * 86400000, NEW.kind, 1)
    ON CONFLICT (tenant_id, figure, day_start, key) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER overview_assets_delete AFTER DELETE ON assets
BEGIN
  UPDATE overview_daily SET n = n - 1 WHERE tenant_id = OLD.tenant_id AND figure = 'assets' AND day_start = (OLD.created_at / 86400000) * 86400000 AND key = OLD.kind;
END;
--> statement-breakpoint
CREATE TRIGGER overview_webhook_deliveries_insert AFTER INSERT ON webhook_deliveries
BEGIN
  INSERT INTO overview_daily (tenant_id, figure, day_start, key, n) VALUES (NEW.tenant_id, 'webhook_deliveries', (NEW.created_at / 86400000) * 86400000, NEW.status, 1)
    ON CONFLICT (tenant_id, figure, day_start, key) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER overview_webhook_deliveries_update AFTER UPDATE OF status, tenant_id, created_at ON webhook_deliveries
  WHEN OLD.status IS NOT NEW.status OR OLD.tenant_id IS NOT NEW.tenant_id OR OLD.created_at IS NOT NEW.created_at
BEGIN
  UPDATE overview_daily SET n = n - 1 WHERE tenant_id = OLD.tenant_id AND figure = 'webhook_deliveries' AND day_start = (OLD.created_at / 86400000) * 86400000 AND key = OLD.status;
  INSERT INTO overview_daily (tenant_id, figure, day_start, key, n) VALUES (NEW.tenant_id, 'webhook_deliveries', (NEW.created_at / 86400000) * 86400000, NEW.status, 1)
    ON CONFLICT (tenant_id, figure, day_start, key) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER overview_webhook_deliveries_delete AFTER DELETE ON webhook_deliveries
BEGIN
  UPDATE overview_daily SET n = n - 1 WHERE tenant_id = OLD.tenant_id AND figure = 'webhook_deliveries' AND day_start = (OLD.created_at / 86400000) * 86400000 AND key = OLD.status;
END;
