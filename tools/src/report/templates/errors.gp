set title {{title}}
set xlabel 'seconds since start (red, lower half: pod killed/terminating; green, upper half: endpoints updated)'
set ylabel 'errors per second'
set grid ytics
set key below
set yrange [0:*]
{{ytics}}
{{arrows}}
plot {{plots}}
