/** Frobber v6: height/width with their inch twins, param and the clumsy extraParams. */
@GenerateConversions(
    internalPackage = "dev.machinery.core.testapi.frobber.internal",
    uses = StandardConversions.class)
package dev.machinery.core.testapi.frobber.v6;

import dev.machinery.conversion.GenerateConversions;
import dev.machinery.conversion.StandardConversions;
