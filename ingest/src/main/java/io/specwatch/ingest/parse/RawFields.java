package io.specwatch.ingest.parse;

import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A line's fields as printed (name to text, in line order): an immutable map that also keeps its
 * Avro binary encoding as a {@code map<string>} (block count, then each name and text, then the end
 * block), so the one sequential stage of the shipper copies it instead of encoding some ten to
 * thirty strings per event: {@link #avroBinary()} is computed once, by the first caller (a parsing
 * thread of {@code ship}).
 *
 * <p>Equal to any map with the same entries ({@link AbstractMap}); iteration order is the order the
 * fields were put.
 */
public final class RawFields extends AbstractMap<String, String> {

  private static final RawFields EMPTY = new RawFields(Collections.emptyMap());

  // null until first used when built from spans (ofSpans): the map is then built from these
  private volatile Map<String, String> fields;
  private volatile byte[] avro;
  // the last without(...): {names, result}; a line's typed names are asked for twice (the parse
  // thread encodes the result, the sending thread's event takes the same instance)
  private volatile Object[] lastWithout;
  private final String text;
  private final String[] names;
  private final int[] spans;
  // a view (without): the parent's fields but those in drop, count of them; its encoding is given
  private final RawFields parent;
  private final Set<String> drop;
  private final int count;

  private RawFields(Map<String, String> fields) {
    this(fields, null, null, null, null, null, null, 0);
  }

  private RawFields(String text, String[] names, int[] spans, byte[] avro) {
    this(null, avro, text, names, spans, null, null, 0);
  }

  private RawFields(RawFields parent, Set<String> drop, int count, byte[] avro) {
    this(null, avro, null, null, null, parent, drop, count);
  }

  private RawFields(
      Map<String, String> fields,
      byte[] avro,
      String text,
      String[] names,
      int[] spans,
      RawFields parent,
      Set<String> drop,
      int count) {
    this.fields = fields;
    this.avro = avro;
    this.text = text;
    this.names = names;
    this.spans = spans;
    this.parent = parent;
    this.drop = drop;
    this.count = count;
  }

  /**
   * RawFields whose texts are spans of {@code text} ({@code text.substring(spans[2 * i], spans[2 *
   * i + 1])} for {@code names[i]}, in that order; names distinct), with their {@link #avroBinary()}
   * already written by the caller, or null: then it is written from the spans when first asked for.
   * The map and its strings are built only when something reads them (the shipper only copies the
   * encoding of the fields its events keep, {@link #without}). The caller hands the arrays over and
   * must not change them.
   */
  public static RawFields ofSpans(String text, String[] names, int[] spans, byte[] avroBinary) {
    if (names.length == 0) {
      return EMPTY;
    }
    return new RawFields(text, names, spans, avroBinary);
  }

  private Map<String, String> map() {
    Map<String, String> m = fields;
    if (m == null) {
      LinkedHashMap<String, String> built = new LinkedHashMap<>(size() * 2);
      if (parent != null) {
        for (Map.Entry<String, String> e : parent.entrySet()) {
          if (!drop.contains(e.getKey())) {
            built.put(e.getKey(), e.getValue());
          }
        }
      } else {
        for (int i = 0; i < names.length; i++) {
          built.put(names[i], text.substring(spans[2 * i], spans[2 * i + 1]));
        }
      }
      m = Collections.unmodifiableMap(built);
      fields = m; // built alike by any thread that races here
    }
    return m;
  }

  /**
   * The fields of {@code map} as RawFields: the same instance when it already is one, else an
   * immutable copy in its iteration order.
   */
  public static RawFields copyOf(Map<String, String> map) {
    if (map instanceof RawFields r) {
      return r;
    }
    return owning(new LinkedHashMap<>(map));
  }

  /**
   * RawFields over {@code map} itself, without a copy: the caller hands the map over and must not
   * change it afterwards (the parsers build one per line).
   */
  public static RawFields owning(LinkedHashMap<String, String> map) {
    if (map.isEmpty()) {
      return EMPTY;
    }
    return new RawFields(Collections.unmodifiableMap(map));
  }

  /** Whether a field of that name is here, without building the map of a spans-based instance. */
  public boolean has(String name) {
    if (parent != null) {
      return !drop.contains(name) && parent.has(name);
    }
    if (names != null) {
      for (String n : names) {
        if (n.equals(name)) {
          return true;
        }
      }
      return false;
    }
    return fields.containsKey(name);
  }

  /**
   * These fields without those named in {@code drop} (names not here are ignored), in the same
   * order, with their own {@link #avroBinary()}: this instance when none of them is here. The
   * result for the last {@code drop} asked for (equal sets) is kept, so that asking again returns
   * the same instance and its encoding is computed once. The result is a view: its map is built
   * from this one's when first read (the shipper only copies its encoding), and {@code drop} must
   * not change afterwards.
   */
  public RawFields without(Set<String> drop) {
    Object[] last = lastWithout;
    if (last != null && (last[0] == drop || last[0].equals(drop))) {
      return (RawFields) last[1];
    }
    RawFields result = computeWithout(drop);
    lastWithout = new Object[] {drop, result};
    return result;
  }

  private RawFields computeWithout(Set<String> drop) {
    if (drop.isEmpty()) {
      return this;
    }
    Avro out = SCRATCH.get();
    int kept = 0;
    if (names != null) { // from the spans: no strings built
      for (String n : names) {
        if (!drop.contains(n)) {
          kept++;
        }
      }
      if (kept == names.length) {
        return this;
      }
      out.pos = 0;
      if (kept > 0) {
        out.varLong(kept);
        for (int i = 0; i < names.length; i++) {
          if (!drop.contains(names[i])) {
            out.string(names[i]);
            out.string(text, spans[2 * i], spans[2 * i + 1]);
          }
        }
      }
    } else {
      Map<String, String> all = map();
      for (String n : all.keySet()) {
        if (!drop.contains(n)) {
          kept++;
        }
      }
      if (kept == all.size()) {
        return this;
      }
      out.pos = 0;
      if (kept > 0) {
        out.varLong(kept);
        for (Map.Entry<String, String> e : all.entrySet()) {
          if (!drop.contains(e.getKey())) {
            out.string(e.getKey());
            out.string(e.getValue());
          }
        }
      }
    }
    if (kept == 0) {
      return EMPTY;
    }
    out.varLong(0);
    return new RawFields(this, drop, kept, Arrays.copyOf(out.buf, out.pos));
  }

  @Override
  public Set<Map.Entry<String, String>> entrySet() {
    return map().entrySet();
  }

  @Override
  public int size() {
    return names != null ? names.length : parent != null ? count : fields.size();
  }

  @Override
  public String get(Object key) {
    return map().get(key);
  }

  @Override
  public boolean containsKey(Object key) {
    return map().containsKey(key);
  }

  /**
   * The Avro binary encoding of these fields as a {@code map} of {@code string}: for a non-empty
   * map one block (its count as a zig-zag varint, then each name and text as length and UTF-8
   * bytes) and the end block (0); for an empty one only the end block. What Avro's {@code
   * BinaryEncoder} writes for the same map. Shared: callers copy it, never change it.
   *
   * @throws NullPointerException when a name or text is null (an Avro map holds neither)
   */
  public byte[] avroBinary() {
    byte[] b = avro;
    if (b == null) {
      b = encode();
      avro = b;
    }
    return b;
  }

  private byte[] encode() {
    Avro out = SCRATCH.get();
    out.pos = 0;
    if (names != null) { // from the spans, without building the map
      out.varLong(names.length);
      for (int i = 0; i < names.length; i++) {
        out.string(names[i]);
        out.string(text, spans[2 * i], spans[2 * i + 1]);
      }
      out.varLong(0);
      return Arrays.copyOf(out.buf, out.pos);
    }
    Map<String, String> fields = map();
    if (!fields.isEmpty()) {
      out.varLong(fields.size());
      for (Map.Entry<String, String> e : fields.entrySet()) {
        out.string(e.getKey());
        out.string(e.getValue());
      }
    }
    out.varLong(0);
    return Arrays.copyOf(out.buf, out.pos);
  }

  /**
   * Writes v as an Avro long (zig-zag varint; an Avro int is the same for values in int range) at
   * {@code pos}, which has room for 10 bytes, and returns the position after it. Shared with the
   * shipper's DecodeEvent writers ({@code AvroOut}, {@code SglangEventParts}).
   */
  public static int writeVarLong(byte[] buf, int pos, long v) {
    long n = (v << 1) ^ (v >> 63);
    while ((n & ~0x7FL) != 0) {
      buf[pos++] = (byte) ((n & 0x7F) | 0x80);
      n >>>= 7;
    }
    buf[pos++] = (byte) n;
    return pos;
  }

  /** One work buffer per thread; {@link #encode} returns a copy of the part it wrote. */
  private static final ThreadLocal<Avro> SCRATCH = ThreadLocal.withInitial(() -> new Avro(4096));

  /** A growing buffer of Avro binary: zig-zag varints and length-prefixed UTF-8 strings. */
  private static final class Avro {
    byte[] buf;
    int pos;

    Avro(int capacity) {
      buf = new byte[capacity];
    }

    void varLong(long v) {
      ensure(10);
      pos = writeVarLong(buf, pos, v);
    }

    /** The chars from..to of s as an Avro string. */
    void string(String s, int from, int to) {
      int n = to - from;
      ensure(10 + n);
      int at = writeVarLong(buf, pos, n);
      for (int i = 0; i < n; i++) {
        char c = s.charAt(from + i);
        if (c >= 0x80) {
          string(s.substring(from, to));
          return;
        }
        buf[at + i] = (byte) c;
      }
      pos = at + n;
    }

    void string(String s) {
      // nearly every name and value is ASCII: its chars are its UTF-8 bytes, copied in one pass
      int n = s.length();
      ensure(10 + n);
      int at = writeVarLong(buf, pos, n); // pos moves only once the string is known to be ASCII
      int i = 0;
      while (i < n) {
        char c = s.charAt(i);
        if (c >= 0x80) {
          break;
        }
        buf[at + i++] = (byte) c;
      }
      if (i == n) {
        pos = at + n;
        return;
      }
      byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
      varLong(utf8.length);
      ensure(utf8.length);
      System.arraycopy(utf8, 0, buf, pos, utf8.length);
      pos += utf8.length;
    }

    private void ensure(int n) {
      if (pos + n > buf.length) {
        buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + n));
      }
    }
  }
}
