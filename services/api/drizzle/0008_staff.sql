CREATE TABLE "staff_api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"scope" text NOT NULL,
	"key_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "staff_api_keys_key_hash_unique" UNIQUE("key_hash"),
	CONSTRAINT "staff_api_keys_scope_check" CHECK ("staff_api_keys"."scope" IN ('read', 'export'))
);
--> statement-breakpoint
CREATE TABLE "staff_exports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"staff_id" uuid NOT NULL,
	"format" text NOT NULL,
	"filters" jsonb NOT NULL,
	"force" integer DEFAULT 0 NOT NULL,
	"status" text NOT NULL,
	"selected" integer DEFAULT 0 NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"rendered" integer DEFAULT 0 NOT NULL,
	"unchanged" integer DEFAULT 0 NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"file_path" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "staff_exports_format_check" CHECK ("staff_exports"."format" IN ('zip', 'combined'))
);
--> statement-breakpoint
CREATE TABLE "staff_login_throttle" (
	"email" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"last_failure_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "staff_members" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"source" text NOT NULL,
	"password_hash" text,
	"totp_secret" text,
	"totp_confirmed_at" timestamp with time zone,
	"totp_last_step" integer,
	"setup_token_hash" text,
	"setup_expires_at" timestamp with time zone,
	"disabled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "staff_members_email_unique" UNIQUE("email"),
	CONSTRAINT "staff_members_role_check" CHECK ("staff_members"."role" IN ('reader', 'exporter')),
	CONSTRAINT "staff_members_source_check" CHECK ("staff_members"."source" IN ('local', 'oidc'))
);
--> statement-breakpoint
CREATE TABLE "staff_sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"staff_id" uuid NOT NULL,
	"stage" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "staff_search_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "staff_sort_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "staff_status" text GENERATED ALWAYS AS (CASE WHEN submitted_at IS NOT NULL THEN 'submitted' WHEN 'validating' = ANY(web_status) THEN 'validating' ELSE 'started' END) STORED;--> statement-breakpoint
ALTER TABLE "service_audit" ADD COLUMN "staff_id" uuid;--> statement-breakpoint
ALTER TABLE "service_audit" ADD COLUMN "staff_email" text;--> statement-breakpoint
ALTER TABLE "staff_exports" ADD CONSTRAINT "staff_exports_staff_id_staff_members_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_sessions" ADD CONSTRAINT "staff_sessions_staff_id_staff_members_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "staff_exports_staff_idx" ON "staff_exports" USING btree ("staff_id","created_at");--> statement-breakpoint
CREATE INDEX "staff_sessions_staff_idx" ON "staff_sessions" USING btree ("staff_id");--> statement-breakpoint
CREATE INDEX "applications_staff_search_idx" ON "applications" USING gin ("staff_search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "applications_staff_status_idx" ON "applications" USING btree ("staff_status","submitted_at" DESC NULLS LAST,"user_id");--> statement-breakpoint
CREATE INDEX "applications_staff_sort_name_idx" ON "applications" USING btree ("staff_sort_name","user_id");--> statement-breakpoint
CREATE INDEX "applications_staff_submitted_idx" ON "applications" USING btree ("submitted_at" DESC NULLS LAST,"user_id");--> statement-breakpoint
-- Hand-written (drizzle-kit models neither functions nor triggers); the same SQL runs on PGlite and
-- PostgreSQL. staff_fold() folds text for the staff search: the Latin letters with diacritics
-- (Latin-1, Extended-A/B, Extended Additional, upper and lower case, so it does not depend on the
-- database locale) become their base letter, ß/æ/œ/þ are spelled out, apostrophes join and every
-- other mark but @ and . separates words. Queries are folded by the same function, so both sides
-- always agree. IMMUTABLE: it depends on its argument only.
CREATE FUNCTION "staff_fold"(value text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fold$
  SELECT btrim(regexp_replace(
    lower(translate(
      replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(
        value, 'ß', 'ss'), 'ẞ', 'ss'), 'æ', 'ae'), 'Æ', 'ae'), 'œ', 'oe'), 'Œ', 'oe'),
        'þ', 'th'), 'Þ', 'th'), '''', ''), '’', ''),
      'ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝàáâãäåçèéêëìíîïñòóôõöùúûüýÿĀāĂăĄąĆćĈĉĊċČčĎďĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİĴĵĶķĹĺĻļĽľŃńŅņŇňŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžſƠơƯưǍǎǏǐǑǒǓǔǕǖǗǘǙǚǛǜǞǟǠǡǦǧǨǩǪǫǬǭǰǴǵǸǹǺǻȀȁȂȃȄȅȆȇȈȉȊȋȌȍȎȏȐȑȒȓȔȕȖȗȘșȚțȞȟȦȧȨȩȪȫȬȭȮȯȰȱȲȳḀḁḂḃḄḅḆḇḈḉḊḋḌḍḎḏḐḑḒḓḔḕḖḗḘḙḚḛḜḝḞḟḠḡḢḣḤḥḦḧḨḩḪḫḬḭḮḯḰḱḲḳḴḵḶḷḸḹḺḻḼḽḾḿṀṁṂṃṄṅṆṇṈṉṊṋṌṍṎṏṐṑṒṓṔṕṖṗṘṙṚṛṜṝṞṟṠṡṢṣṤṥṦṧṨṩṪṫṬṭṮṯṰṱṲṳṴṵṶṷṸṹṺṻṼṽṾṿẀẁẂẃẄẅẆẇẈẉẊẋẌẍẎẏẐẑẒẓẔẕẖẗẘẙẛẠạẢảẤấẦầẨẩẪẫẬậẮắẰằẲẳẴẵẶặẸẹẺẻẼẽẾếỀềỂểỄễỆệỈỉỊịỌọỎỏỐốỒồỔổỖỗỘộỚớỜờỞởỠỡỢợỤụỦủỨứỪừỬửỮữỰựỲỳỴỵỶỷỸỹøØłŁđĐðÐıĸŀĿ',
      'aaaaaaceeeeiiiinooooouuuuyaaaaaaceeeeiiiinooooouuuuyyaaaaaaccccccccddeeeeeeeeeegggggggghhiiiiiiiiijjkkllllllnnnnnnoooooorrrrrrssssssssttttuuuuuuuuuuuuwwyyyzzzzzzsoouuaaiioouuuuuuuuuuaaaaggkkoooojggnnaaaaaaeeeeiiiioooorrrruuuusstthhaaeeooooooooyyaabbbbbbccddddddddddeeeeeeeeeeffgghhhhhhhhhhiiiikkkkkkllllllllmmmmmmnnnnnnnnoooooooopppprrrrrrrrssssssssssttttttttuuuuuuuuuuvvvvwwwwwwwwwwxxxxyyzzzzzzhtwysaaaaaaaaaaaaaaaaaaaaaaaaeeeeeeeeeeeeeeeeiiiioooooooooooooooooooooooouuuuuuuuuuuuuuyyyyyyyyoollddddikll')),
    '[^a-z0-9@.]+', ' ', 'g'))
$fold$;--> statement-breakpoint
-- Keeps the staff list's search text and name order with the answers: recomputed only when a name
-- key changes (or the row is new), so ordinary autosaves pay four comparisons.
CREATE FUNCTION "applications_staff_text"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
    AND NEW.answer->'first_name' IS NOT DISTINCT FROM OLD.answer->'first_name'
    AND NEW.answer->'middle_name' IS NOT DISTINCT FROM OLD.answer->'middle_name'
    AND NEW.answer->'last_name' IS NOT DISTINCT FROM OLD.answer->'last_name'
    AND NEW.answer->'preferred_name' IS NOT DISTINCT FROM OLD.answer->'preferred_name' THEN
    RETURN NEW;
  END IF;
  NEW.staff_search_text := staff_fold(concat_ws(' ', NEW.answer->>'first_name',
    NEW.answer->>'middle_name', NEW.answer->>'last_name', NEW.answer->>'preferred_name',
    (SELECT u.email FROM users u WHERE u.id = NEW.user_id)));
  NEW.staff_sort_name := staff_fold(concat_ws(' ', NEW.answer->>'last_name', NEW.answer->>'first_name'));
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "applications_staff_text" BEFORE INSERT OR UPDATE OF "answer" ON "applications"
  FOR EACH ROW EXECUTE FUNCTION "applications_staff_text"();--> statement-breakpoint
UPDATE "applications" a SET
  "staff_search_text" = staff_fold(concat_ws(' ', a.answer->>'first_name', a.answer->>'middle_name',
    a.answer->>'last_name', a.answer->>'preferred_name', u.email)),
  "staff_sort_name" = staff_fold(concat_ws(' ', a.answer->>'last_name', a.answer->>'first_name'))
FROM "users" u WHERE u.id = a.user_id;