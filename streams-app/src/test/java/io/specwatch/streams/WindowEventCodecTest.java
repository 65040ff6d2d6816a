package io.specwatch.streams;

import static io.specwatch.streams.TestEvents.event;
import static io.specwatch.streams.TestEvents.full;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.specwatch.schemas.DecodeEvent;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

/** The event log entry keeps every field the window reads, nulls included. */
class WindowEventCodecTest {
  private static List<DecodeEvent> events() {
    return List.of(
        full("dep-a", 10, 40, 2.0, 40, 120, 30.0, 60.0, 4000.0, 3),
        DecodeEvent.newBuilder(full("dep-a", 11, 7, 1.5, 5, 9, 12.5, 33.0, 900.0, 17))
            .setSpecEnabled(false)
            .setPromptCategory("chat ü")
            .setDraftMs(3.25)
            .setVerifyMs(9.75)
            .setPerPositionAccepted(Arrays.asList(7L, null, 2L))
            .setPerPositionAcceptance(Arrays.asList(0.9, 0.5, null, 0.1))
            .build(),
        event("dep-b", 12).build()); // every optional metric null
  }

  @Test
  void roundTripKeepsWhatTheWindowReads() {
    for (DecodeEvent e : events()) {
      for (boolean late : new boolean[] {false, true}) {
        byte[] bytes = WindowEventCodec.write(new WindowInput(e, late), 123_456L);
        WindowEventCodec.Entry entry = WindowEventCodec.read(bytes);
        assertThat(entry.timestamp()).isEqualTo(123_456L);
        assertThat(entry.input().late()).isEqualTo(late);
        DecodeEvent r = entry.input().event();
        assertThat(r.getSpecEnabled()).isEqualTo(e.getSpecEnabled());
        assertThat(r.getPromptCategory()).isEqualTo(e.getPromptCategory());
        assertThat(r.getRunningRequests()).isEqualTo(e.getRunningRequests());
        assertThat(r.getCycles()).isEqualTo(e.getCycles());
        assertThat(r.getAcceptLength()).isEqualTo(e.getAcceptLength());
        assertThat(r.getAcceptedTokens()).isEqualTo(e.getAcceptedTokens());
        assertThat(r.getDraftedTokens()).isEqualTo(e.getDraftedTokens());
        assertThat(r.getCycleMs()).isEqualTo(e.getCycleMs());
        assertThat(r.getGenThroughputTokS()).isEqualTo(e.getGenThroughputTokS());
        assertThat(r.getIntervalMs()).isEqualTo(e.getIntervalMs());
        assertThat(r.getDraftMs()).isEqualTo(e.getDraftMs());
        assertThat(r.getVerifyMs()).isEqualTo(e.getVerifyMs());
        assertThat(r.getPerPositionAccepted()).isEqualTo(e.getPerPositionAccepted());
        assertThat(r.getPerPositionAcceptance()).isEqualTo(e.getPerPositionAcceptance());
        assertThat(r.getEventId()).isEqualTo(e.getEventId());
        // and the window built from the log equals the window built from the events
        assertThat(DeploymentWindow.empty().add(entry.input()))
            .isEqualTo(DeploymentWindow.empty().add(new WindowInput(e, late)));
      }
    }
  }

  @Test
  void eventIdsRoundTripPackedWhenHexElseAsText() {
    DecodeEvent base = full("dep-a", 10, 40, 2.0, 40, 120, 30.0, 60.0, 4000.0, 3);
    String hex = "0123456789abcdef0fedcba987654321";
    byte[] packed = write(base, hex);
    int[] sizes = new int[6];
    String[] ids = {
      hex,
      "00000000000000000000000000000000", // packs to (0, 0)
      "0123456789ABCDEF0FEDCBA987654321", // upper case: text, so it reads back as written
      "0123456789abcdef0fedcba98765432", // 31 chars
      "ü-" + UUID_LIKE,
      ""
    };
    for (int i = 0; i < ids.length; i++) {
      byte[] bytes = write(base, ids[i]);
      sizes[i] = bytes.length;
      assertThat(WindowEventCodec.read(bytes).input().event().getEventId())
          .as("id '%s'", ids[i])
          .isEqualTo(ids[i]);
    }
    // hex ids take 1 + 16 bytes, text ids 1 + 4 + their UTF-8 length
    assertThat(sizes[1]).isEqualTo(packed.length);
    assertThat(sizes[2]).isEqualTo(packed.length - 16 + 4 + 32);
    assertThat(sizes[3]).isEqualTo(packed.length - 16 + 4 + 31);
    assertThat(sizes[5]).isEqualTo(packed.length - 16 + 4);
    // the packed bytes are the id's 16 bytes, after version, late and timestamp
    assertThat(packed[0]).isEqualTo(WindowEventCodec.VERSION_2);
    assertThat(Arrays.copyOfRange(packed, 11, 27))
        .isEqualTo(java.util.HexFormat.of().parseHex(hex));
  }

  private static final String UUID_LIKE = "4f1c2d3e-0000-4000-8000-123456789abc";

  private static byte[] write(DecodeEvent e, String id) {
    return WindowEventCodec.write(
        new WindowInput(DecodeEvent.newBuilder(e).setEventId(id).build(), false), 42L);
  }

  @Test
  void entriesWithoutIdFromVersion1AreStillRead() {
    DecodeEvent e = full("dep-a", 10, 40, 2.0, 40, 120, 30.0, 60.0, 4000.0, 3);
    byte[] v2 = write(e, "not hex");
    // v1 = v2 without the id (kind byte 2, int length 7, 7 bytes) after version, late, timestamp
    int idBytes = 1 + 4 + 7;
    byte[] v1 = new byte[v2.length - idBytes];
    System.arraycopy(v2, 0, v1, 0, 10);
    System.arraycopy(v2, 10 + idBytes, v1, 10, v2.length - 10 - idBytes);
    v1[0] = WindowEventCodec.VERSION_1;
    WindowEventCodec.Entry entry = WindowEventCodec.read(v1);
    assertThat(entry.timestamp()).isEqualTo(42L);
    assertThat(entry.input().event().getEventId()).isNull();
    assertThat(DeploymentWindow.empty().add(entry.input()))
        .isEqualTo(DeploymentWindow.empty().add(new WindowInput(e, false)));
  }

  @Test
  void badEntriesFailAsSerializationErrors() {
    byte[] good = WindowEventCodec.write(new WindowInput(events().get(1), false), 1L);
    assertThatThrownBy(() -> WindowEventCodec.read(Arrays.copyOf(good, good.length - 3)))
        .isInstanceOf(SerializationException.class);
    byte[] longer = Arrays.copyOf(good, good.length + 1);
    assertThatThrownBy(() -> WindowEventCodec.read(longer))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("trailing");
    byte[] otherVersion = good.clone();
    otherVersion[0] = 9;
    assertThatThrownBy(() -> WindowEventCodec.read(otherVersion))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("version");
  }
}
