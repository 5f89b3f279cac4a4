package dev.machinery.apiserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's packages depend on each other without a cycle: the package dependencies of the
 * compiled classes, as the JDK's {@code jdeps} reads them from the bytecode (so a Javadoc link is
 * no dependency), form no strongly connected component larger than one package.
 */
class PackageCyclesTest {
  private static final String PREFIX = "dev.machinery.apiserver";
  private static final Pattern EDGE =
      Pattern.compile("^\\s*(dev\\.machinery\\.apiserver[\\w.]*)\\s+->\\s+(\\S+)\\s");

  @Test
  void noPackageOfTheServerDependsOnItselfThroughAnother(@TempDir Path copy)
      throws IOException, URISyntaxException {
    Map<String, Set<String>> edges = dependencies(copy);
    assertTrue(
        edges.containsKey(PREFIX + ".filters") && edges.containsKey(PREFIX),
        "jdeps read the server's packages: " + edges.keySet());
    List<List<String>> cycles = cycles(edges);
    assertEquals(
        List.of(), cycles, "package cycles, with the edges inside each: " + detail(cycles, edges));
  }

  @Test
  void theRootPackageHoldsTheServerAloneAndNothingDependsOnIt(@TempDir Path copy)
      throws IOException, URISyntaxException {
    Map<String, Set<String>> edges = dependencies(copy);
    List<String> dependents = new ArrayList<>();
    edges.forEach(
        (from, to) -> {
          if (!from.equals(PREFIX) && to.contains(PREFIX)) {
            dependents.add(from);
          }
        });
    assertEquals(List.of(), dependents);
  }

  /** The finder of cycles itself finds one, so that an empty answer means something. */
  @Test
  void findsACycleWhereThereIsOne() {
    Map<String, Set<String>> edges = new TreeMap<>();
    edges.put("a", new TreeSet<>(List.of("b")));
    edges.put("b", new TreeSet<>(List.of("c")));
    edges.put("c", new TreeSet<>(List.of("a", "d")));
    edges.put("d", new TreeSet<>());
    assertEquals(List.of(List.of("a", "b", "c")), cycles(edges));
  }

  /** The server's package dependencies among themselves, read by jdeps from the classes. */
  private static Map<String, Set<String>> dependencies(Path copy)
      throws IOException, URISyntaxException {
    Path classes =
        Path.of(ApiServer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    assertTrue(Files.isDirectory(classes), "the server's classes are a directory: " + classes);
    // Without module-info.class, jdeps reads the classes without resolving the module's requires.
    try (Stream<Path> files = Files.walk(classes)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        if (file.toString().endsWith(".class")
            && !file.getFileName().toString().equals("module-info.class")) {
          Path target = copy.resolve(classes.relativize(file).toString());
          Files.createDirectories(target.getParent());
          Files.copy(file, target);
        }
      }
    }
    ToolProvider jdeps =
        ToolProvider.findFirst("jdeps")
            .orElseThrow(
                () ->
                    new AssertionError(
                        "the JDK's jdeps tool is missing: run the tests on a JDK, not a JRE"));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        jdeps.run(new PrintWriter(out), new PrintWriter(err), "-verbose:package", copy.toString());
    assertEquals(0, code, "jdeps failed: " + err);
    Map<String, Set<String>> edges = new TreeMap<>();
    for (String line : out.toString().split("\n")) {
      Matcher m = EDGE.matcher(line);
      if (m.find() && m.group(2).startsWith(PREFIX)) {
        String from = m.group(1);
        String to = m.group(2);
        edges.computeIfAbsent(from, k -> new TreeSet<>());
        edges.computeIfAbsent(to, k -> new TreeSet<>());
        if (!from.equals(to)) {
          edges.get(from).add(to);
        }
      }
    }
    return edges;
  }

  /** Tarjan's strongly connected components of more than one package, each sorted. */
  private static List<List<String>> cycles(Map<String, Set<String>> edges) {
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> low = new HashMap<>();
    Deque<String> stack = new ArrayDeque<>();
    Set<String> onStack = new TreeSet<>();
    List<List<String>> found = new ArrayList<>();
    int[] counter = {0};
    for (String node : edges.keySet()) {
      if (!index.containsKey(node)) {
        connect(node, edges, index, low, stack, onStack, found, counter);
      }
    }
    return found;
  }

  private static void connect(
      String node,
      Map<String, Set<String>> edges,
      Map<String, Integer> index,
      Map<String, Integer> low,
      Deque<String> stack,
      Set<String> onStack,
      List<List<String>> found,
      int[] counter) {
    index.put(node, counter[0]);
    low.put(node, counter[0]);
    counter[0]++;
    stack.push(node);
    onStack.add(node);
    for (String next : edges.getOrDefault(node, Set.of())) {
      if (!index.containsKey(next)) {
        connect(next, edges, index, low, stack, onStack, found, counter);
        low.put(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.contains(next)) {
        low.put(node, Math.min(low.get(node), index.get(next)));
      }
    }
    if (low.get(node).equals(index.get(node))) {
      TreeSet<String> component = new TreeSet<>();
      String member;
      do {
        member = stack.pop();
        onStack.remove(member);
        component.add(member);
      } while (!member.equals(node));
      if (component.size() > 1) {
        found.add(List.copyOf(component));
      }
    }
  }

  private static String detail(List<List<String>> cycles, Map<String, Set<String>> edges) {
    StringBuilder out = new StringBuilder();
    for (List<String> cycle : cycles) {
      for (String from : cycle) {
        TreeSet<String> inside = new TreeSet<>(edges.get(from));
        inside.retainAll(cycle);
        out.append('\n').append(from).append(" -> ").append(inside);
      }
    }
    return out.toString();
  }
}
