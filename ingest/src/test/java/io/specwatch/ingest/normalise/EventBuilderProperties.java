package io.specwatch.ingest.normalise;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.Engine;
import io.specwatch.schemas.EventKind;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.apache.avro.Schema;

/**
 * {@link EventBuilder} builds what {@link DecodeEvent.Builder} builds from the same setter calls,
 * and fails where it fails with the same exception: random subsets of the fields set, in random
 * order, with random values, nulls included (also for fields that take none); so does its path for
 * another schema version on the class path ({@link EventBuilder#buildWithAvroBuilder}).
 */
class EventBuilderProperties {

  @Property(tries = 3000)
  void buildsWhatAvrosBuilderBuilds(@ForAll long seed) throws Exception {
    Random random = new Random(seed);
    EventBuilder ours = new EventBuilder();
    DecodeEvent.Builder avro = DecodeEvent.newBuilder();
    List<Schema.Field> fields = new ArrayList<>(DecodeEvent.getClassSchema().getFields());
    java.util.Collections.shuffle(fields, random);
    // mostly every field without default set and non-null, so most cases build an event
    boolean complete = random.nextInt(4) > 0;
    Throwable oursFailed = null;
    Throwable avroFailed = null;
    for (Schema.Field f : fields) {
      boolean required = !f.hasDefaultValue();
      if (!(complete && required) && random.nextInt(3) == 0) {
        continue; // not set
      }
      String setter = "set" + Character.toUpperCase(f.name().charAt(0)) + f.name().substring(1);
      Method a = setter(DecodeEvent.Builder.class, setter);
      Method o = setter(EventBuilder.class, setter);
      assertThat(o.getParameterTypes()).isEqualTo(a.getParameterTypes());
      boolean nullable = !a.getParameterTypes()[0].isPrimitive();
      Object value =
          nullable && random.nextInt(complete && required ? 1000 : 5) == 0
              ? null
              : value(a.getParameterTypes()[0], f, random);
      if (oursFailed == null) {
        oursFailed = invoke(o, ours, value);
      }
      if (avroFailed == null) {
        avroFailed = invoke(a, avro, value);
      }
    }
    assertThat(EventBuilder.SAME_SCHEMA).as("this build's DecodeEvent is the layout's").isTrue();
    DecodeEvent oursEvent = null;
    DecodeEvent avroEvent = null;
    DecodeEvent fallbackEvent = null;
    Throwable fallbackFailed = oursFailed;
    if (oursFailed == null) {
      try {
        oursEvent = ours.build();
      } catch (RuntimeException e) {
        oursFailed = e;
      }
      try {
        // the path taken when another schema version is on the class path
        fallbackEvent = ours.buildWithAvroBuilder();
      } catch (RuntimeException e) {
        fallbackFailed = e;
      }
    }
    if (avroFailed == null) {
      try {
        avroEvent = avro.build();
      } catch (RuntimeException e) {
        avroFailed = e;
      }
    }
    if (avroFailed != null) {
      assertThat(oursFailed).isNotNull();
      assertThat(oursFailed.getClass()).isEqualTo(avroFailed.getClass());
      assertThat(oursFailed.getMessage()).isEqualTo(avroFailed.getMessage());
      assertThat(fallbackFailed).isNotNull();
      assertThat(fallbackFailed.getClass()).isEqualTo(avroFailed.getClass());
      assertThat(fallbackFailed.getMessage()).isEqualTo(avroFailed.getMessage());
    } else {
      assertThat(oursFailed).isNull();
      assertThat(oursEvent).isEqualTo(avroEvent);
      assertThat(oursEvent.toString()).isEqualTo(avroEvent.toString());
      assertThat(fallbackFailed).isNull();
      assertThat(fallbackEvent).isEqualTo(avroEvent);
    }
  }

  private static Method setter(Class<?> c, String name) {
    for (Method m : c.getDeclaredMethods()) {
      if (m.getName().equals(name) && m.getParameterCount() == 1) {
        m.setAccessible(true);
        return m;
      }
    }
    throw new AssertionError(c + " has no " + name);
  }

  private static Throwable invoke(Method m, Object target, Object value) throws Exception {
    try {
      m.invoke(target, value);
      return null;
    } catch (InvocationTargetException e) {
      return e.getCause();
    }
  }

  private static Object value(Class<?> type, Schema.Field f, Random r) {
    if (type == String.class) {
      return "s" + r.nextInt(100);
    }
    if (type == Long.class) {
      return r.nextLong();
    }
    if (type == Integer.class) {
      return r.nextInt();
    }
    if (type == Double.class) {
      return r.nextInt(10) == 0 ? Double.NaN : r.nextDouble() * 1000;
    }
    if (type == Boolean.class || type == boolean.class) {
      return r.nextBoolean();
    }
    if (type == Instant.class) {
      return Instant.ofEpochMilli(r.nextLong() >>> 24);
    }
    if (type == Engine.class) {
      return Engine.values()[r.nextInt(Engine.values().length)];
    }
    if (type == EventKind.class) {
      return EventKind.values()[r.nextInt(EventKind.values().length)];
    }
    if (type == List.class) {
      List<Object> l = new ArrayList<>();
      boolean doubles = f.schema().getElementType().getType() == Schema.Type.DOUBLE;
      for (int i = r.nextInt(4); i > 0; i--) {
        l.add(doubles ? (Object) r.nextDouble() : (Object) r.nextLong());
      }
      return r.nextBoolean() ? List.copyOf(l) : l;
    }
    if (type == Map.class) {
      Map<String, String> m = new LinkedHashMap<>();
      for (int i = r.nextInt(4); i > 0; i--) {
        m.put("k" + i, "v" + r.nextInt(9));
      }
      return m;
    }
    throw new AssertionError("no values for " + type);
  }
}
