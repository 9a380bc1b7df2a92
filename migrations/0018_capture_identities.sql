CREATE TABLE `capture_admission_challenges` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`capture_identity_id` text NOT NULL,
	`secret_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`created_by_key_id` text NOT NULL,
	`used_at` integer
);
--> statement-breakpoint
CREATE INDEX `capture_admission_challenges_identity_idx` ON `capture_admission_challenges` (`tenant_id`,`capture_identity_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `capture_identities` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`state` text NOT NULL,
	`enrollment_id` text NOT NULL,
	`attestation_kind` text NOT NULL,
	`provider_class` text NOT NULL,
	`platform` text NOT NULL,
	`installation_id_sha256` text NOT NULL,
	`app_id` text,
	`key_id` text,
	`public_key_spki` text,
	`counter` integer,
	`security_level` text,
	`boot_state` text,
	`device_locked` integer,
	`os_version` integer,
	`os_patch_level` integer,
	`app_version` integer,
	`environment` text,
	`device_integrity` text NOT NULL,
	`app_recognition` text,
	`trust_snapshot_version` text NOT NULL,
	`revocation_snapshot_version` text,
	`verifier_version` text NOT NULL,
	`identity_version` integer NOT NULL,
	`identity_version_id` text NOT NULL,
	`enrolled_version_id` text NOT NULL,
	`last_attested_at` integer NOT NULL,
	`last_evidence_issued_at` integer,
	`created_at` integer NOT NULL,
	`revoked_at` integer,
	`revoked_by_key_id` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `capture_identities_enrollment_uq` ON `capture_identities` (`enrollment_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `capture_identities_active_key_uq` ON `capture_identities` (`tenant_id`,`provider_class`,`key_id`) WHERE state = 'active';--> statement-breakpoint
CREATE UNIQUE INDEX `capture_identities_active_installation_uq` ON `capture_identities` (`tenant_id`,`installation_id_sha256`) WHERE state = 'active';--> statement-breakpoint
CREATE INDEX `capture_identities_tenant_created_idx` ON `capture_identities` (`tenant_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `capture_identity_enrollments` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`attestation_kind` text NOT NULL,
	`installation_id_sha256` text NOT NULL,
	`secret_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`created_by_key_id` text NOT NULL,
	`completed_at` integer,
	`statement_sha256` text,
	`capture_identity_id` text
);
--> statement-breakpoint
CREATE INDEX `capture_identity_enrollments_tenant_created_idx` ON `capture_identity_enrollments` (`tenant_id`,`created_at`,`id`);