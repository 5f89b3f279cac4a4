/** The sample server's internal {@code apps} Deployment, the hub of its version conversions. */
package dev.machinery.examples.apps.internal;
