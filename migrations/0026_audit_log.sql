CREATE TABLE `audit_events` (
	`tenant_id` text NOT NULL,
	`seq` integer NOT NULL,
	`id` text NOT NULL,
	`occurred_at` integer NOT NULL,
	`action` text NOT NULL,
	`outcome` text NOT NULL,
	`actor_kind` text NOT NULL,
	`actor_id` text,
	`credential_id` text,
	`request_id` text,
	`target_type` text,
	`target_id` text,
	`status_code` integer,
	`detail` text,
	`prev_hash` text NOT NULL,
	`hash` text NOT NULL,
	PRIMARY KEY(`tenant_id`, `seq`)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `audit_events_id_uq` ON `audit_events` (`id`);--> statement-breakpoint
CREATE INDEX `audit_events_tenant_time_idx` ON `audit_events` (`tenant_id`,`occurred_at`);--> statement-breakpoint
CREATE INDEX `audit_events_tenant_target_idx` ON `audit_events` (`tenant_id`,`target_id`);--> statement-breakpoint
-- Append-only: the application never changes or removes an audit entry. These triggers stop a bug from doing it;
-- the hash chain is what detects someone with direct database access doing it anyway.
CREATE TRIGGER audit_events_append_only_update BEFORE UPDATE ON audit_events
BEGIN
  SELECT RAISE(ABORT, 'svc_audit_append_only');
END;
--> statement-breakpoint
CREATE TRIGGER audit_events_append_only_delete BEFORE DELETE ON audit_events
BEGIN
  SELECT RAISE(ABORT, 'svc_audit_append_only');
END;
