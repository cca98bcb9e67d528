import { timestamp } from "drizzle-orm/pg-core";

/** A point in time as every table stores one: milliseconds, with its time zone, read as a Date. */
export const instant = (name: string) => timestamp(name, { precision: 3, withTimezone: true, mode: "date" });

/** When a row that changes state was made and last changed, both set by the database by default. */
export const rowTimes = () => ({
  createdAt: instant("created_at").notNull().defaultNow(),
  updatedAt: instant("updated_at").notNull().defaultNow(),
});
