package io.specwatch.sink.finetune;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BalancerTest {

  private static Candidate c(String category, String id, double tau) {
    return new Candidate(
        category,
        "k-" + id,
        1,
        id,
        "e-" + id,
        "d",
        "h-" + id,
        null,
        null,
        null,
        "2026-03-14 02:00:00",
        tau,
        100,
        50,
        -1,
        -1,
        2.0,
        10);
  }

  private static List<String> ids(List<Selection.Selected> s) {
    return s.stream().map(x -> x.candidate().requestId() + "#" + x.rankInCategory()).toList();
  }

  @Test
  void categoriesTakeTurnsInNameOrderWorstFirst() {
    Map<String, List<Candidate>> in =
        Map.of(
            "math", List.of(c("math", "m1", 1.0), c("math", "m2", 1.5)),
            "chat", List.of(c("chat", "h1", 1.1), c("chat", "h2", 1.2), c("chat", "h3", 1.3)),
            "code", List.of(c("code", "c1", 1.9)));
    assertThat(ids(Balancer.balance(in, 3))).containsExactly("h1#1", "c1#1", "m1#1");
    assertThat(ids(Balancer.balance(in, 5)))
        .containsExactly("h1#1", "c1#1", "m1#1", "h2#2", "m2#2");
  }

  @Test
  void whatASmallCategoryCannotFillGoesToTheOthers() {
    Map<String, List<Candidate>> in =
        Map.of(
            "a", List.of(c("a", "a1", 1.0)),
            "b", List.of(c("b", "b1", 1.0), c("b", "b2", 1.0), c("b", "b3", 1.0)));
    assertThat(ids(Balancer.balance(in, 4))).containsExactly("a1#1", "b1#1", "b2#2", "b3#3");
    assertThat(ids(Balancer.balance(in, 100))).hasSize(4);
    assertThat(Balancer.balance(Map.of(), 10)).isEmpty();
  }

  @Test
  void relativeTauAndWhy() {
    Candidate x =
        new Candidate(
            "chat", "h1", 2, "r1", "e1", "d", "h1", null, null, null, "t", 1.2, 200, 100, 20, 200,
            2.2, 5);
    assertThat(x.relativeTau()).isCloseTo(0.5454, org.assertj.core.api.Assertions.within(1e-4));
    assertThat(new Selection.Selected(x, 1).why())
        .isEqualTo(
            "tau 1.20 is 0.55x the 'chat' median 2.20 (worst 1 of 5 prompts there);"
                + " 2 requests with this prompt, the lowest tau kept");
  }
}
