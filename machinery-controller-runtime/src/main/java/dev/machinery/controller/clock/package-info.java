/**
 * Time as the runtime sees it: a {@link dev.machinery.controller.clock.Clock} that reads the time
 * and schedules wake-ups, the system's, and a {@link dev.machinery.controller.clock.FakeClock} that
 * tests step by hand (client-go's {@code k8s.io/utils/clock} and its testing clock).
 */
package dev.machinery.controller.clock;
