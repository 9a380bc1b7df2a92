CREATE TABLE `capture_admissions` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`capture_identity_id` text NOT NULL,
	`challenge_id` text NOT NULL,
	`consumed_challenge_id` text,
	`submission_sha256` text NOT NULL,
	`attestation_kind` text NOT NULL,
	`provider_class` text NOT NULL,
	`installation_id_sha256` text NOT NULL,
	`upload_object_id` text NOT NULL,
	`asset_id` text NOT NULL,
	`statement_sha256` text NOT NULL,
	`sensor_evidence_sha256` text,
	`sensor_schema_version` text,
	`decision` text NOT NULL,
	`reason` text NOT NULL,
	`failed_gates` text NOT NULL,
	`not_evaluated` text NOT NULL,
	`job_id` text,
	`identity_version_id` text NOT NULL,
	`admission_policy_version` text NOT NULL,
	`capture_policy_id` text NOT NULL,
	`capture_policy_version` text NOT NULL,
	`governance_policy_version` text NOT NULL,
	`verifier_version` text NOT NULL,
	`trust_snapshot_version` text NOT NULL,
	`revocation_snapshot_version` text NOT NULL,
	`evidence_schema_version` text NOT NULL,
	`created_by_key_id` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `capture_admissions_submission_uq` ON `capture_admissions` (`tenant_id`,`submission_sha256`);--> statement-breakpoint
CREATE UNIQUE INDEX `capture_admissions_consumed_challenge_uq` ON `capture_admissions` (`consumed_challenge_id`);--> statement-breakpoint
CREATE INDEX `capture_admissions_tenant_created_idx` ON `capture_admissions` (`tenant_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `capture_admissions_identity_idx` ON `capture_admissions` (`tenant_id`,`capture_identity_id`,`created_at`);