# Errors of libtaco become R conditions of class c("taco_<code>", "taco_error", "error",
# "condition"), e.g. taco_not_found or taco_invalid_argument; the message is libtaco's
# ("<input>: <what is wrong>"). Called from C (src/taco_r.c) after the C error is freed.
taco_signal <- function(code, message) {
  class_name <- paste0("taco_", gsub(" ", "_", code, fixed = TRUE))
  cond <- structure(
    class = c(class_name, "taco_error", "error", "condition"),
    list(message = message, call = NULL, code = code)
  )
  stop(cond)
}
