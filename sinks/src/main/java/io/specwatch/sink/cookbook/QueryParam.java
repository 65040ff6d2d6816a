package io.specwatch.sink.cookbook;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * One {@code {name:Type}} parameter of a cookbook query, declared in its header as {@code -- param:
 * name Type default description}. Values are validated against the type and rendered as SQL
 * literals, so a value can never change the query's structure.
 */
public record QueryParam(String name, String type, String defaultValue, String description) {

  /** Types the cookbook uses; each is accepted by ClickHouse 18.16 literal syntax. */
  public static final Set<String> TYPES =
      Set.of("String", "DateTime", "Date", "UInt32", "UInt64", "Int64", "Float64");

  private static final DateTimeFormatter DATE_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);

  public QueryParam {
    Objects.requireNonNull(name, "name");
    if (!TYPES.contains(type)) {
      throw new IllegalArgumentException(
          "parameter " + name + ": type " + type + " is not one of " + TYPES);
    }
    Objects.requireNonNull(defaultValue, "defaultValue");
    description = description == null ? "" : description;
    literal(name, type, defaultValue);
  }

  /** The value as a ClickHouse literal of this type; IllegalArgumentException naming the param. */
  public String literal(String value) {
    return literal(name, type, value);
  }

  private static String literal(String name, String type, String value) {
    try {
      return switch (type) {
        case "String" -> "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'";
        case "DateTime" -> "toDateTime('" + DATE_TIME.format(dateTime(value)) + "', 'UTC')";
        case "Date" -> "toDate('" + LocalDate.parse(value.strip()) + "')";
        case "UInt32", "UInt64" -> {
          long v = Long.parseLong(value.strip());
          if (v < 0) {
            throw new NumberFormatException("negative");
          }
          yield Long.toString(v);
        }
        case "Int64" -> Long.toString(Long.parseLong(value.strip()));
        case "Float64" -> {
          double d = Double.parseDouble(value.strip());
          if (!Double.isFinite(d)) {
            throw new NumberFormatException("not finite");
          }
          yield "toFloat64(" + d + ")";
        }
        default -> throw new IllegalStateException(type);
      };
    } catch (NumberFormatException | DateTimeParseException e) {
      throw new IllegalArgumentException(
          "--param " + name + "=" + value + ": not a " + type + " (" + e.getMessage() + ")", e);
    }
  }

  /** The value as ClickHouse's own query-parameter syntax wants it ({@code param_name=...}). */
  public String nativeValue(String value) {
    literal(value);
    return "DateTime".equals(type) ? DATE_TIME.format(dateTime(value)) : value.strip();
  }

  private static LocalDateTime dateTime(String value) {
    String v = value.strip().replace('T', ' ');
    if (v.length() == 10) {
      v = v + " 00:00:00";
    }
    if (v.endsWith("Z")) {
      v = v.substring(0, v.length() - 1);
    }
    return LocalDateTime.parse(v, DATE_TIME);
  }
}
