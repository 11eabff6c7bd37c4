CREATE TABLE "lookup_vocabulary" (
	"source" text NOT NULL,
	"word" text NOT NULL,
	CONSTRAINT "lookup_vocabulary_source_word_pk" PRIMARY KEY("source","word")
);
--> statement-breakpoint
CREATE TABLE "lookup_words" (
	"source" text NOT NULL,
	"word" text NOT NULL,
	"search_text" text NOT NULL,
	"key" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "lookup_vocabulary_prefix_idx" ON "lookup_vocabulary" USING btree ("source","word" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "lookup_vocabulary_trgm_idx" ON "lookup_vocabulary" USING gin ("word" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "lookup_words_order_idx" ON "lookup_words" USING btree ("source","word","search_text" text_pattern_ops,"key" text_pattern_ops);--> statement-breakpoint
-- Backfill from the rows already imported (lookup-import.ts rebuilds the same way after each import).
INSERT INTO "lookup_words" ("source", "word", "search_text", "key")
  SELECT DISTINCT 'lookup_high_schools', w, search_text, code
  FROM lookup_high_schools, regexp_split_to_table(search_text, ' ') AS w WHERE w <> '';--> statement-breakpoint
INSERT INTO "lookup_words" ("source", "word", "search_text", "key")
  SELECT DISTINCT 'lookup_colleges', w, search_text, code
  FROM lookup_colleges, regexp_split_to_table(search_text, ' ') AS w WHERE w <> '';--> statement-breakpoint
INSERT INTO "lookup_words" ("source", "word", "search_text", "key")
  SELECT DISTINCT 'lookup_addresses', w, search_text, id
  FROM lookup_addresses, regexp_split_to_table(search_text, ' ') AS w WHERE w <> '';--> statement-breakpoint
INSERT INTO "lookup_vocabulary" ("source", "word")
  SELECT DISTINCT "source", "word" FROM "lookup_words";
