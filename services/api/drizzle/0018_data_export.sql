ALTER TABLE "service_audit" DROP CONSTRAINT "service_audit_action_check";--> statement-breakpoint
ALTER TABLE "staff_exports" DROP CONSTRAINT "staff_exports_format_check";--> statement-breakpoint
ALTER TABLE "service_audit" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "service_audit" ADD CONSTRAINT "service_audit_action_check" CHECK ("service_audit"."action" IN ('print-view', 'pdf', 'checklist', 'data-export', 'sensitive-export'));--> statement-breakpoint
ALTER TABLE "staff_exports" ADD CONSTRAINT "staff_exports_format_check" CHECK ("staff_exports"."format" IN ('zip', 'combined', 'csv', 'json', 'ndjson'));