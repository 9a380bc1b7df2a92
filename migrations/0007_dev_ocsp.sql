CREATE TABLE `dev_ocsp_revocations` (
	`serial_hex` text PRIMARY KEY NOT NULL,
	`revoked_at` integer NOT NULL,
	`reason` integer
);
