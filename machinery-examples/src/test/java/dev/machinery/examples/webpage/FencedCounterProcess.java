package dev.machinery.examples.webpage;

import dev.machinery.api.core.v1.ConfigMap;
import dev.machinery.client.Client;
import dev.machinery.client.ResourceClient;
import dev.machinery.client.transport.HttpTransport;
import dev.machinery.controller.client.ClientLeaseLock;
import dev.machinery.controller.clock.Clock;
import dev.machinery.controller.leaderelection.LeaderCallbacks;
import dev.machinery.controller.leaderelection.LeaderElectionConfig;
import dev.machinery.controller.leaderelection.LeaderElectionRecord;
import dev.machinery.controller.leaderelection.LeaderElector;
import dev.machinery.unversioned.errors.ApiErrors;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One replica of {@link LeaderElectionAcrossProcessesTest}, run in its own JVM: a {@link
 * LeaderElector} on the Lease {@value #LEASE} (lease 4s, renew deadline 3s, retry 1s) through the
 * client over HTTP; while it leads it increments the counter of the ConfigMap {@value #COUNTER}
 * every 200 ms with an update carrying the resource version it read (compare-and-swap), recording
 * its identity and the Lease holder and transitions its elector saw. Each step is a line on
 * standard output: {@code LEADING id ms}, {@code WRITE counter id holder transitions ms}, {@code
 * CONFLICT id ms}, {@code STOPPED id ms}. A line {@code stop} on standard input cancels the
 * elector, which releases the Lease, and the process exits.
 *
 * <p>Arguments: the server's URL and this replica's identity.
 */
public final class FencedCounterProcess {
  /** The Lease's name, in namespace {@code default}. */
  static final String LEASE = "fenced-counter";

  /** The ConfigMap's name, in namespace {@code default}. */
  static final String COUNTER = "fenced-counter";

  private FencedCounterProcess() {}

  private static synchronized void say(String line) {
    System.out.println(line + " " + System.currentTimeMillis());
    System.out.flush();
  }

  /**
   * Runs the replica.
   *
   * @param args the server's URL and the identity
   * @throws Exception if the client cannot be built
   */
  public static void main(String[] args) throws Exception {
    URI server = URI.create(args[0]);
    String identity = args[1];
    AtomicBoolean leading = new AtomicBoolean();
    Client client =
        Client.builder(HttpTransport.builder(server).build())
            .scheme(WebPageController.scheme())
            .build();
    LeaderElector elector =
        new LeaderElector(
            new LeaderElectionConfig(
                new ClientLeaseLock(client, "default", LEASE, identity),
                Duration.ofSeconds(4),
                Duration.ofSeconds(3),
                Duration.ofSeconds(1),
                new LeaderCallbacks() {
                  @Override
                  public void onStartedLeading() {
                    leading.set(true);
                    say("LEADING " + identity);
                  }

                  @Override
                  public void onStoppedLeading() {
                    leading.set(false);
                    say("STOPPED " + identity);
                  }
                },
                true,
                "fenced-counter"),
            Clock.system());
    Thread election = new Thread(elector::run, "election");
    election.start();
    Thread stdin =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                  if (line.equals("stop")) {
                    break;
                  }
                }
              } catch (java.io.IOException e) {
                say("STDIN-FAILED " + identity);
              }
              leading.set(false); // no write once asked to stop, before the Lease is released
              elector.cancel();
            },
            "stdin");
    stdin.setDaemon(true);
    stdin.start();
    ResourceClient<ConfigMap> maps = client.resources(ConfigMap.class).inNamespace("default");
    while (election.isAlive()) {
      Thread.sleep(200);
      if (!leading.get() || !elector.isLeader()) {
        continue;
      }
      try {
        ConfigMap map = maps.get(COUNTER);
        LeaderElectionRecord seen = elector.observedRecord();
        if (!leading.get() || !elector.isLeader()) {
          continue;
        }
        Map<String, String> data = new LinkedHashMap<>(map.getData());
        long counter = Long.parseLong(data.get("counter")) + 1;
        String entry =
            counter + " " + identity + " " + seen.holderIdentity() + " " + seen.leaderTransitions();
        data.put("counter", Long.toString(counter));
        data.put("writer", identity);
        data.put("holder", seen.holderIdentity());
        data.put("transitions", Integer.toString(seen.leaderTransitions()));
        data.put("history", data.getOrDefault("history", "") + entry + "\n");
        map.setData(data);
        maps.update(map); // carries the resource version read above: compare-and-swap
        say("WRITE " + entry);
      } catch (RuntimeException e) {
        say((ApiErrors.isConflict(e) ? "CONFLICT " : "FAILED ") + identity);
      }
    }
    client.close();
    System.exit(0);
  }
}
