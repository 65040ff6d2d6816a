package io.specwatch.ingest.parse;

import java.util.List;

/** Parser of one format family. Implementations must never throw. */
public interface LineParser {

  /** Format id this parser produces, e.g. {@code sglang.decode_batch}. */
  String format();

  /** Parses one line (without its line terminator). */
  ParseResult parse(String line);

  /**
   * Literals of which a line must contain at least one for {@link #parse} to answer anything but
   * {@link ParseResult.NotMetric}: a promise that lets {@link ParserRegistry} skip this parser
   * after one scan of the line. Empty (the default): no such promise, the parser is always tried.
   */
  default List<String> markers() {
    return List.of();
  }
}
