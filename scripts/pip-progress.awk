# pip's output in, a few lines of progress out: packages resolved (every 20, or one updating line on a terminal),
# how many are installed, a line a minute while something compiles, and pip's own errors and warnings.
# Used by scripts/setup:  pip install … 2>&1 | awk -v tty=0|1 -v started=$(date +%s) -f scripts/pip-progress.awk
function say(text) {
  if (tty) { printf "\r\033[K      %s", text } else { print "      " text }
  fflush()
}
function done_line() {
  if (tty && shown) { printf "\n" }
  shown = 0
}
function minutes(   now) {
  "date +%s" | getline now
  close("date +%s")
  return int((now - started) / 60)
}
/^Collecting / {
  n++
  name = $2
  sub(/[<>=!~;\[(].*/, "", name)
  if (tty || n % 20 == 0) { say(n " packages resolved so far (" name ")"); shown = 1 }
}
/^Requirement already satisfied/ { have++ }
/Building wheel for .*started/ {
  done_line()
  building = $4
  print "      compiling " building " from source (a line every minute or so while it runs)"
  fflush()
}
/Building wheel for .*still running/ { print "      … still compiling " building " (" minutes() " min so far)"; fflush() }
/^Installing collected packages/ {
  done_line()
  count = split($0, parts, ",")
  already = have ? have " already there; " : ""
  print "      installing " count (count == 1 ? " package" : " packages (" already "unpacking the big ones takes a while)")
  fflush()
}
/^(ERROR|WARNING)/ && !/is ignored/ { done_line(); print "      " $0; fflush() }
END { done_line(); if (have && !count) { print "      already installed" } }
