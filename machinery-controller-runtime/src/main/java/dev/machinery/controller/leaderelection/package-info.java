/**
 * Leader election after client-go's {@code tools/leaderelection}: a {@link
 * dev.machinery.controller.leaderelection.LeaderElector} takes and renews a lease held through a
 * {@link dev.machinery.controller.leaderelection.LeaseLock} (client-go's {@code
 * resourcelock.Interface}), so that one replica of a controller acts at a time.
 */
package dev.machinery.controller.leaderelection;
