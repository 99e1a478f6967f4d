set title {{title}}
set xlabel 'seconds since start (dotted: red = pod killed/terminating, green = endpoints updated)'
set ylabel 'errors per second'
set grid ytics
set key top right
set yrange [0:*]
{{arrows}}
plot {{plots}}
