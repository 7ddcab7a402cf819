library(testthat)
library(taco)
test_check("taco")
