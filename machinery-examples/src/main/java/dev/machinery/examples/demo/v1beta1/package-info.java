/**
 * Version {@code v1beta1} of the sample's {@code demo.example.dev} group, an older served version
 * of {@code v1}. Conversions to and from the internal form are generated.
 */
@GenerateConversions(internalPackage = "dev.machinery.examples.demo.internal")
package dev.machinery.examples.demo.v1beta1;

import dev.machinery.conversion.GenerateConversions;
