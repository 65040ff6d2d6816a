package io.specwatch.ingest.parse;

/** Parser of one format family. Implementations must never throw. */
public interface LineParser {

  /** Format id this parser produces, e.g. {@code sglang.decode_batch}. */
  String format();

  /** Parses one line (without its line terminator). */
  ParseResult parse(String line);
}
