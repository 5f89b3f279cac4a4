package dev.machinery.cluster.controller.cronjob;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Map;

/**
 * A cron schedule as Kubernetes reads {@code spec.schedule} (the standard parser of
 * github.com/robfig/cron v3, {@code cron.ParseStandard}): five fields (minute, hour, day of month,
 * month, day of week) of numbers, names ({@code JAN}-{@code DEC}, {@code SUN}-{@code SAT}), {@code
 * *}, {@code ?}, ranges, steps and lists; the descriptors {@code @yearly} ({@code @annually}),
 * {@code @monthly}, {@code @weekly}, {@code @daily} ({@code @midnight}), {@code @hourly} and {@code
 * @every <duration>}; and an optional {@code TZ=<zone>} or {@code CRON_TZ=<zone>} prefix. When both
 * day fields are restricted a day matching either runs, as cron does; when one is {@code *} the
 * other decides.
 *
 * <p>Immutable and thread-safe.
 */
final class CronSchedule {
  private static final long STAR = 1L << 63;
  private static final Map<String, Integer> MONTHS =
      Map.ofEntries(
          Map.entry("jan", 1),
          Map.entry("feb", 2),
          Map.entry("mar", 3),
          Map.entry("apr", 4),
          Map.entry("may", 5),
          Map.entry("jun", 6),
          Map.entry("jul", 7),
          Map.entry("aug", 8),
          Map.entry("sep", 9),
          Map.entry("oct", 10),
          Map.entry("nov", 11),
          Map.entry("dec", 12));
  private static final Map<String, Integer> DAYS =
      Map.of("sun", 0, "mon", 1, "tue", 2, "wed", 3, "thu", 4, "fri", 5, "sat", 6);

  private final long minutes;
  private final long hours;
  private final long daysOfMonth;
  private final long months;
  private final long daysOfWeek;
  private final Duration every;
  private final ZoneId zone;

  private CronSchedule(
      long minutes,
      long hours,
      long daysOfMonth,
      long months,
      long daysOfWeek,
      Duration every,
      ZoneId zone) {
    this.minutes = minutes;
    this.hours = hours;
    this.daysOfMonth = daysOfMonth;
    this.months = months;
    this.daysOfWeek = daysOfWeek;
    this.every = every;
    this.zone = zone;
  }

  /** Thrown for a schedule that cannot be parsed, with robfig/cron's words. */
  static final class ParseException extends Exception {
    private static final long serialVersionUID = 1L;

    ParseException(String message) {
      super(message);
    }
  }

  /**
   * Parses a schedule, in UTC unless it carries a zone.
   *
   * @param spec the schedule
   * @return the schedule
   * @throws ParseException when it cannot be parsed
   */
  static CronSchedule parse(String spec) throws ParseException {
    return parse(spec, ZoneOffset.UTC);
  }

  /**
   * Parses a schedule in a zone, which a {@code TZ=} / {@code CRON_TZ=} prefix overrides.
   *
   * @param spec the schedule
   * @param defaultZone the zone
   * @return the schedule
   * @throws ParseException when it cannot be parsed
   */
  static CronSchedule parse(String spec, ZoneId defaultZone) throws ParseException {
    if (spec == null || spec.isEmpty()) {
      throw new ParseException("empty spec string");
    }
    String text = spec;
    ZoneId zone = defaultZone;
    if (text.startsWith("TZ=") || text.startsWith("CRON_TZ=")) {
      int space = text.indexOf(' ');
      String name = text.substring(text.indexOf('=') + 1, space < 0 ? text.length() : space);
      try {
        zone = ZoneId.of(name);
      } catch (DateTimeException e) {
        throw new ParseException("provided bad location " + name + ": unknown time zone " + name);
      }
      text = space < 0 ? "" : text.substring(space).trim();
    }
    if (text.startsWith("@")) {
      return descriptor(text, zone);
    }
    String[] fields = text.trim().split("\\s+");
    if (fields.length != 5) {
      throw new ParseException(
          "expected exactly 5 fields, found "
              + fields.length
              + ": ["
              + String.join(" ", fields)
              + "]");
    }
    return new CronSchedule(
        field(fields[0], 0, 59, Map.of()),
        field(fields[1], 0, 23, Map.of()),
        field(fields[2], 1, 31, Map.of()),
        field(fields[3], 1, 12, MONTHS),
        field(fields[4], 0, 6, DAYS),
        null,
        zone);
  }

  private static CronSchedule descriptor(String text, ZoneId zone) throws ParseException {
    long all = STAR;
    return switch (text) {
      case "@yearly", "@annually" ->
          new CronSchedule(1L, 1L, 1L << 1, 1L << 1, bits(0, 6, 1) | all, null, zone);
      case "@monthly" ->
          new CronSchedule(1L, 1L, 1L << 1, bits(1, 12, 1) | all, bits(0, 6, 1) | all, null, zone);
      case "@weekly" ->
          new CronSchedule(1L, 1L, bits(1, 31, 1) | all, bits(1, 12, 1) | all, 1L, null, zone);
      case "@daily", "@midnight" ->
          new CronSchedule(
              1L, 1L, bits(1, 31, 1) | all, bits(1, 12, 1) | all, bits(0, 6, 1) | all, null, zone);
      case "@hourly" ->
          new CronSchedule(
              1L,
              bits(0, 23, 1) | all,
              bits(1, 31, 1) | all,
              bits(1, 12, 1) | all,
              bits(0, 6, 1) | all,
              null,
              zone);
      default -> {
        if (text.startsWith("@every ")) {
          Duration duration = GoDurations.parse(text.substring("@every ".length()).trim());
          if (duration == null) {
            throw new ParseException(
                "failed to parse duration " + text + ": time: invalid duration");
          }
          // robfig/cron: at least one second, whole seconds.
          long seconds = Math.max(1, duration.getSeconds());
          yield new CronSchedule(0, 0, 0, 0, 0, Duration.ofSeconds(seconds), zone);
        }
        throw new ParseException("unrecognized descriptor: " + text);
      }
    };
  }

  private static long field(String field, int min, int max, Map<String, Integer> names)
      throws ParseException {
    long bits = 0;
    for (String part : field.split(",", -1)) {
      bits |= range(part, min, max, names);
    }
    return bits;
  }

  private static long range(String expr, int min, int max, Map<String, Integer> names)
      throws ParseException {
    String[] rangeAndStep = expr.split("/", -1);
    String[] lowAndHigh = rangeAndStep[0].split("-", -1);
    boolean single = lowAndHigh.length == 1;
    int start;
    int end;
    long extra = 0;
    if (lowAndHigh[0].equals("*") || lowAndHigh[0].equals("?")) {
      start = min;
      end = max;
      extra = STAR;
    } else {
      start = value(lowAndHigh[0], names);
      if (lowAndHigh.length == 1) {
        end = start;
      } else if (lowAndHigh.length == 2) {
        end = value(lowAndHigh[1], names);
      } else {
        throw new ParseException("too many hyphens: " + expr);
      }
    }
    int step;
    if (rangeAndStep.length == 1) {
      step = 1;
    } else if (rangeAndStep.length == 2) {
      step = number(rangeAndStep[1]);
      if (single) {
        end = max; // "N/step" is "N-max/step"
      }
      if (step > 1) {
        extra = 0;
      }
    } else {
      throw new ParseException("too many slashes: " + expr);
    }
    if (start < min) {
      throw new ParseException(
          "beginning of range (" + start + ") below minimum (" + min + "): " + expr);
    }
    if (end > max) {
      throw new ParseException("end of range (" + end + ") above maximum (" + max + "): " + expr);
    }
    if (start > end) {
      throw new ParseException(
          "beginning of range (" + start + ") beyond end of range (" + end + "): " + expr);
    }
    if (step == 0) {
      throw new ParseException("step of range should be a positive number: " + expr);
    }
    return bits(start, end, step) | extra;
  }

  private static int value(String text, Map<String, Integer> names) throws ParseException {
    Integer named = names.get(text.toLowerCase(Locale.ROOT));
    return named != null ? named : number(text);
  }

  private static int number(String text) throws ParseException {
    try {
      int value = Integer.parseInt(text);
      if (value < 0) {
        throw new ParseException("negative number (" + value + ") not allowed: " + text);
      }
      return value;
    } catch (NumberFormatException e) {
      throw new ParseException(
          "failed to parse int from "
              + text
              + ": strconv.Atoi: parsing \""
              + text
              + "\": invalid syntax");
    }
  }

  private static long bits(int min, int max, int step) {
    long bits = 0;
    for (int i = min; i <= max; i += step) {
      bits |= 1L << i;
    }
    return bits;
  }

  /**
   * Returns the first activation strictly after a time, or null when there is none within five
   * years (robfig/cron's zero time), such as for {@code 59 23 31 2 *}.
   *
   * @param after the time
   * @return the next activation, or null
   */
  Instant next(Instant after) {
    if (every != null) {
      // robfig/cron's ConstantDelaySchedule: the delay after the time, to the second.
      return after.plus(every).truncatedTo(ChronoUnit.SECONDS);
    }
    ZonedDateTime t = after.atZone(zone).plusSeconds(1).truncatedTo(ChronoUnit.SECONDS);
    // Only the 0th second matches: the seconds field of the standard parser.
    boolean added = false;
    int yearLimit = t.getYear() + 5;
    wrap:
    while (true) {
      if (t.getYear() > yearLimit) {
        return null;
      }
      while ((1L << t.getMonthValue() & months) == 0) {
        if (!added) {
          added = true;
          t = t.withDayOfMonth(1).truncatedTo(ChronoUnit.DAYS);
        }
        t = t.plusMonths(1);
        if (t.getMonthValue() == 1) {
          continue wrap;
        }
      }
      while (!dayMatches(t)) {
        if (!added) {
          added = true;
          t = t.truncatedTo(ChronoUnit.DAYS);
        }
        t = t.plusDays(1);
        if (t.getDayOfMonth() == 1) {
          continue wrap;
        }
      }
      while ((1L << t.getHour() & hours) == 0) {
        if (!added) {
          added = true;
          t = t.truncatedTo(ChronoUnit.HOURS);
        }
        t = t.plusHours(1);
        if (t.getHour() == 0) {
          continue wrap;
        }
      }
      while ((1L << t.getMinute() & minutes) == 0) {
        if (!added) {
          added = true;
          t = t.truncatedTo(ChronoUnit.MINUTES);
        }
        t = t.plusMinutes(1);
        if (t.getMinute() == 0) {
          continue wrap;
        }
      }
      while (t.getSecond() != 0) {
        if (!added) {
          added = true;
        }
        t = t.plusSeconds(1);
        if (t.getSecond() == 0) {
          continue wrap;
        }
      }
      return t.toInstant();
    }
  }

  private boolean dayMatches(ZonedDateTime t) {
    boolean dom = (1L << t.getDayOfMonth() & daysOfMonth) != 0;
    boolean dow = (1L << (t.getDayOfWeek().getValue() % 7) & daysOfWeek) != 0;
    if ((daysOfMonth & STAR) != 0 || (daysOfWeek & STAR) != 0) {
      return dom && dow;
    }
    return dom || dow;
  }

  /** Returns the zone the schedule runs in. */
  ZoneId zone() {
    return zone;
  }
}
