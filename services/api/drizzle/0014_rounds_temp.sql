CREATE TABLE "rounds" (
	"code" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"entry_term" text NOT NULL,
	"opens_at" timestamp with time zone NOT NULL,
	"deadline" timestamp with time zone NOT NULL,
	"grace_minutes" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
