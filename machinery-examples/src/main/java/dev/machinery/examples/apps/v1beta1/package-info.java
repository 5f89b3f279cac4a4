/** The {@code apps/v1beta1} Deployment of the sample server: an older served version of apps/v1. */
package dev.machinery.examples.apps.v1beta1;
