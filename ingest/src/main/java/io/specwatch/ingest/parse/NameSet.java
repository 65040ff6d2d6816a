package io.specwatch.ingest.parse;

import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A small immutable set of field names whose {@link #contains} compares references first: the
 * parsers name their fields with the same constant strings that {@link NameSets} holds, so a lookup
 * is a few reference comparisons where a {@code HashSet} hashed and probed (9 % of the shipper's
 * parse threads in {@link RawFields#without}, 2026-12-05). A name that is an equal but distinct
 * string is still found, by {@link String#equals}. Insertion order; a {@link java.util.Set} in
 * every other respect ({@code equals} and {@code hashCode} of {@link AbstractSet}).
 */
final class NameSet extends AbstractSet<String> {

  private final String[] names;

  /** The distinct, non-null {@code names}, in that order. */
  NameSet(String... names) {
    for (int i = 0; i < names.length; i++) {
      if (names[i] == null) {
        throw new NullPointerException("names[" + i + "]");
      }
      for (int j = 0; j < i; j++) {
        if (names[j].equals(names[i])) {
          throw new IllegalArgumentException("duplicate name " + names[i]);
        }
      }
    }
    this.names = names.clone();
  }

  @Override
  public boolean contains(Object o) {
    String[] n = names;
    for (String name : n) {
      if (name == o) {
        return true;
      }
    }
    if (!(o instanceof String s)) {
      return false;
    }
    for (String name : n) {
      if (name.equals(s)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public int size() {
    return names.length;
  }

  @Override
  public Iterator<String> iterator() {
    return new Iterator<>() {
      private int next;

      @Override
      public boolean hasNext() {
        return next < names.length;
      }

      @Override
      public String next() {
        if (next >= names.length) {
          throw new NoSuchElementException();
        }
        return names[next++];
      }
    };
  }

  @Override
  public String toString() {
    return Arrays.toString(names);
  }
}
