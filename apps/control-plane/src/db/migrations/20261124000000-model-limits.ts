import { sql, type Kysely, type Migration } from "@gateway/db";

/** Per-part prompt token maxima (admission bounds for media) and an image model's default size. */
export const modelLimits: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      ALTER TABLE models ADD COLUMN max_input_tokens_per_image bigint NOT NULL DEFAULT 2000;
      ALTER TABLE models ADD COLUMN max_input_tokens_per_audio bigint NOT NULL DEFAULT 0;
      ALTER TABLE models ADD COLUMN default_image_size text NOT NULL DEFAULT '';
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE models DROP COLUMN max_input_tokens_per_image, DROP COLUMN max_input_tokens_per_audio, DROP COLUMN default_image_size`.execute(db);
  },
};
